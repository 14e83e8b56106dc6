package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.QueuePolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the fair order charges a call that ran longer than expected. The engines' own fair-sharing
 * contract ({@link FairSharingContract}) runs real statements; here the engine times are chosen,
 * so the charge rule is pinned down exactly.
 */
class FairQueueTest {

  private static final int SESSIONS = 8;

  /** One principal, eight sessions that always have one call waiting, one slot: round-robin. */
  private final FairQueue<String> queue = new FairQueue<>("c", QueuePolicy.DEFAULT, 1_000, 1, QueueMeters.NONE);

  FairQueueTest() {
    for (int s = 0; s < SESSIONS; s++) {
      queue.add("s" + s, new Caller("p", "s" + s, "select-count"));
    }
    // the queue learns that the statement costs about a millisecond
    serve(100, 1.0);
  }

  /** Serves {@code n} calls that each take {@code ms}; each session calls again once served. */
  private List<String> serve(int n, double ms) {
    List<String> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(serveOne(ms));
    }
    return order;
  }

  private String serveOne(double ms) {
    FairQueue.Entry<String> e = queue.next();
    queue.finished(e, ms);
    queue.add(e.item(), new Caller("p", e.item(), "select-count"));
    return e.item();
  }

  @Test
  void aShortCallSlowedByAPauseDoesNotPushItsSessionBackManyRounds() {
    // a collector pause stretches one call from 1 ms to 40 ms, still short (under short_ms = 100)
    String unlucky = serveOne(40.0);
    // charged its 40 ms, it would wait until the seven others had had 39 more calls each
    List<String> next = serve(2 * SESSIONS, 1.0);
    assertTrue(next.contains(unlucky), unlucky + " is served again within two rounds: " + next);
  }

  @Test
  void aCallThatTurnedOutLongIsChargedItsRealTime() {
    String heavy = serveOne(400.0);
    // charged 400 ms, it waits until the seven others have had some 300-400 calls of 1 ms each
    List<String> next = serve(SESSIONS * 200, 1.0);
    assertTrue(!next.contains(heavy), heavy + " waits while the others catch up");
    List<String> later = serve(SESSIONS * 250, 1.0);
    assertTrue(later.contains(heavy), heavy + " is served once they have");
  }

  /** A queue of one slot where statement "one" is known to cost 1 ms and "fifty" 50 ms. */
  private static FairQueue<String> learned() {
    FairQueue<String> q = new FairQueue<>("c", QueuePolicy.DEFAULT, 1_000, 1, QueueMeters.NONE);
    for (String key : List.of("one", "fifty")) {
      for (int i = 0; i < 40; i++) {
        q.add("w", new Caller("p", "warm", key));
        q.finished(q.next(), key.equals("one") ? 1.0 : 50.0);
      }
    }
    return q;
  }

  private static List<String> drain(FairQueue<String> q) {
    List<String> order = new ArrayList<>();
    for (FairQueue.Entry<String> e; (e = q.next()) != null; ) {
      order.add(e.item());
      q.finished(e, 1.0);
    }
    return order;
  }

  @Test
  void sessionsAtNearlyEqualStandingGoInArrivalOrder() {
    FairQueue<String> q = learned();
    q.add("a0", new Caller("p", "a", "one"));
    q.finished(q.next(), 1.0);
    // a is a millisecond of service ahead of b, and its call came first
    q.add("a1", new Caller("p", "a", "one"));
    q.add("b1", new Caller("p", "b", "one"));
    q.add("c1", new Caller("q", "c", "one"));
    assertEquals(List.of("a1", "b1", "c1"), drain(q));
  }

  @Test
  void aSessionFurtherAheadThanTheToleranceIsPassed() {
    FairQueue<String> q = learned();
    q.add("a0", new Caller("p", "a", "fifty"));
    q.finished(q.next(), 50.0);
    q.add("a1", new Caller("p", "a", "one"));
    q.add("b1", new Caller("p", "b", "one"));
    assertEquals(List.of("b1", "a1"), drain(q));
  }

  @Test
  void aPrincipalFurtherAheadThanTheToleranceIsPassed() {
    FairQueue<String> q = learned();
    q.add("a0", new Caller("p", "a", "fifty"));
    q.finished(q.next(), 50.0);
    q.add("a1", new Caller("p", "a2", "one"));
    q.add("c1", new Caller("q", "c", "one"));
    assertEquals(List.of("c1", "a1"), drain(q));
  }

  @Test
  void aCallThatIsNextButNotAdmissibleHoldsBackTheCallsBehindIt() {
    for (QueuePolicy.Order order : QueuePolicy.Order.values()) {
      FairQueue<String> q = new FairQueue<>("c", QueuePolicy.DEFAULT.withOrder(order), 100, 1, QueueMeters.NONE);
      q.add("whole", new Caller("p", "a", "x"));
      q.add("rider", new Caller("p", "b", "x"));
      assertEquals(null, q.next(item -> !item.equals("whole")), order + ": the rider may not pass");
      assertEquals(2, q.size(), "nothing left the queue");
      assertEquals("whole", q.next(item -> true).item(), order.toString());
      assertEquals("rider", q.next(item -> true).item(), order.toString());
    }
  }
}
