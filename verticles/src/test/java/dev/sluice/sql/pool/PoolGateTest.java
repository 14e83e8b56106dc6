package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.sql.Driver;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How calls share a pool's connections: riders spread, then stack up to the depth; a call that
 * needs a whole connection is not passed by riders; the last rider hands the connection back; and
 * only texts that ran short last time ride. Engine-free: the PostgreSQL side is PgRidersTest.
 */
class PoolGateTest {

  private static PoolGate gate(int connections, int depth, QueuePolicy.Order order) {
    ConnectionConfig c = new ConnectionConfig("g", Driver.POSTGRES, "postgresql://x@127.0.0.1/x", null, null, null,
        null, connections, 1_000, 30_000, 100, 10_000)
        .withQueue(QueuePolicy.DEFAULT.withOrder(order).withPipelineDepth(depth));
    return new PoolGate(c, QueueMeters.NONE);
  }

  private static Caller caller(int i) {
    return new Caller("p", "s" + i, "select");
  }

  private static boolean granted(PoolGate g, PoolGate.Ticket t) {
    return g.granted(t).succeeded();
  }

  @Test
  void ridersSpreadOverTheConnectionsThenStackUpToTheDepth() {
    PoolGate g = gate(2, 3, QueuePolicy.Order.FIFO);
    List<PoolGate.Ticket> riders = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      riders.add(g.enter(caller(i), true));
    }
    assertNotSame(riders.get(0).seat(), riders.get(1).seat(), "the second rider takes the free connection");
    for (int i = 0; i < 6; i++) {
      assertTrue(granted(g, riders.get(i)), "rider " + i + " has a seat");
    }
    assertFalse(granted(g, riders.get(6)), "two connections of three seats: the seventh waits");
    assertEquals(6, g.riding());
    long onFirst = riders.subList(0, 6).stream().filter(t -> t.seat() == riders.get(0).seat()).count();
    assertEquals(3, onFirst, "three on each connection");

    assertNull(g.release(riders.get(0), null, false), "the seat still has riders");
    assertTrue(granted(g, riders.get(6)), "a freed seat takes the waiting rider");
    assertSame(riders.get(0).seat(), riders.get(6).seat());
  }

  @Test
  void aWholeCallNextInOrderIsNotPassedByRidersAndGetsTheConnectionTheyLeave() {
    PoolGate g = gate(2, 4, QueuePolicy.Order.FIFO);
    PoolGate.Ticket r1 = g.enter(caller(1), true);
    PoolGate.Ticket r2 = g.enter(caller(2), true);
    assertNotSame(r1.seat(), r2.seat(), "one rider on each connection");
    PoolGate.Ticket whole = g.enter(caller(3), false);
    PoolGate.Ticket r3 = g.enter(caller(4), true);
    assertFalse(granted(g, whole), "no free connection");
    assertFalse(granted(g, r3), "seats have room, but the whole call is ahead of it");

    Future<EngineAdapter.Lease> lease = Future.succeededFuture(new EngineAdapter.Lease(null, 7, Future.succeededFuture(),
        new EngineAdapter.Bare()));
    assertSame(lease, r1.seat().lease(() -> lease));
    assertSame(lease, r1.seat().lease(() -> Future.failedFuture("leased twice")), "one lease per seat");
    assertSame(lease, g.release(r1, null, false), "the seat's last rider hands its connection back");
    assertTrue(granted(g, whole), "the connection the rider left goes to the whole call");
    assertTrue(granted(g, r3), "then the rider behind it rides the other connection");
    assertSame(r2.seat(), r3.seat());
    assertEquals(2, g.riding());
  }

  @Test
  void inFairOrderToo() {
    PoolGate g = gate(1, 8, QueuePolicy.Order.FAIR);
    PoolGate.Ticket r1 = g.enter(caller(1), true);
    PoolGate.Ticket whole = g.enter(caller(2), false);
    List<PoolGate.Ticket> later = new ArrayList<>();
    for (int i = 3; i < 10; i++) {
      later.add(g.enter(caller(i), true));
    }
    assertTrue(granted(g, r1));
    assertFalse(granted(g, whole));
    assertTrue(later.stream().noneMatch(t -> granted(g, t)), "no rider passes the whole call");
    g.release(r1, null, false);
    assertTrue(granted(g, whole));
    assertTrue(later.stream().noneMatch(t -> granted(g, t)), "the whole call holds the only connection");
    g.release(whole, null, false);
    assertTrue(later.stream().allMatch(t -> granted(g, t)), "then all seven ride it");
    assertEquals(7, g.riding());
  }

  @Test
  void onlyATextThatRanShortLastTimeRides() throws Exception {
    PoolGate g = gate(2, 8, QueuePolicy.Order.FAIR);
    String quick = "SELECT 1";
    String slow = "SELECT 2";
    assertFalse(g.mayRide(quick), "never timed");
    PoolGate.Ticket t = g.enter(caller(1), false);
    g.answered(t);
    g.release(t, quick, false);
    assertTrue(g.mayRide(quick));

    PoolGate.Ticket s = g.enter(caller(2), false);
    Thread.sleep((long) QueuePolicy.DEFAULT_RIDE_MAX_MS + 5);
    g.answered(s);
    g.release(s, slow, false);
    assertFalse(g.mayRide(slow), "took longer than " + QueuePolicy.DEFAULT_RIDE_MAX_MS + " ms");

    PoolGate.Ticket again = g.enter(caller(3), false);
    Thread.sleep((long) QueuePolicy.DEFAULT_RIDE_MAX_MS + 5);
    g.answered(again);
    g.release(again, quick, false);
    assertFalse(g.mayRide(quick), "the last run counts: a text that turned slow stops riding");

    String cut = "SELECT 3";
    PoolGate.Ticket c1 = g.enter(caller(5), false);
    g.answered(c1);
    g.release(c1, cut, false);
    assertTrue(g.mayRide(cut));
    PoolGate.Ticket c2 = g.enter(caller(5), false);
    g.release(c2, cut, true);
    assertFalse(g.mayRide(cut), "cancelled or out of time a moment after it started: its time is not known");
    PoolGate.Ticket c3 = g.enter(caller(5), false);
    g.answered(c3);
    g.release(c3, cut, false);
    assertTrue(g.mayRide(cut), "quick again once it answered in time");

    String big = "SELECT '" + "x".repeat(RecentReadTimes.MAX_TEXT) + "'";
    PoolGate.Ticket b = g.enter(caller(4), false);
    g.answered(b);
    g.release(b, big, false);
    assertFalse(g.mayRide(big), "texts over " + RecentReadTimes.MAX_TEXT + " chars are not kept");

    PoolGate single = gate(2, 1, QueuePolicy.Order.FAIR);
    PoolGate.Ticket one = single.enter(caller(1), false);
    single.answered(one);
    single.release(one, quick, false);
    assertFalse(single.mayRide(quick), "pipeline_depth 1: nothing rides");
  }

  @Test
  void aRiderTimesItsOwnStatementNotTheOnesAheadOfItOnTheWire() throws Exception {
    PoolGate g = gate(1, 8, QueuePolicy.Order.FIFO);
    PoolGate.Ticket first = g.enter(caller(1), true);
    PoolGate.Ticket second = g.enter(caller(2), true);
    assertSame(first.seat(), second.seat());
    Thread.sleep((long) QueuePolicy.DEFAULT_RIDE_MAX_MS + 10); // the first statement keeps the backend busy
    g.answered(first);
    g.answered(second); // answered right behind it: its own statement was quick
    g.release(first, "SELECT first", false);
    g.release(second, "SELECT second", false);
    assertFalse(g.mayRide("SELECT first"));
    assertTrue(g.mayRide("SELECT second"), "the wait behind the first is not the second's time");
  }

  @Test
  void aSeatWhoseLeaseFailedTakesNoMoreRiders() {
    PoolGate g = gate(1, 8, QueuePolicy.Order.FIFO);
    PoolGate.Ticket r1 = g.enter(caller(1), true);
    g.failed(r1.seat());
    PoolGate.Ticket r2 = g.enter(caller(2), true);
    assertTrue(granted(g, r2), "the connection was never taken: the next rider opens a new seat");
    assertNotNull(r2.seat());
    assertNotSame(r1.seat(), r2.seat());
  }
}
