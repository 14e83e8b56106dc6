package dev.sluice.engine.sqlite;

import static dev.sluice.sql.EngineExecutorContract.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.engine.Engines;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.analysis.SqlAnalyzer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small reads riding busy SQLite worker processes, on real workers and a real file: each rider
 * its own answer (failing ones fail alone), and the hazard of riding, a read that turned slow
 * behind which riders wait: killed at its deadline, it takes no rider down with it (they run
 * again elsewhere), and having run long, or been stopped before its answer, it rides no more; a
 * rider cancelled while it waited still runs on its worker, and is stopped there at a deadline's length.
 */
class SqliteRidersTest {

  /** Far above what the quick reads take, far below the slow one's deadline. */
  private static final long RIDE_MAX_MS = 500;
  private static final long DEADLINE_MS = 4_000;
  private static final String LONG_RIDES = "long-rides";

  @TempDir
  Path dir;
  private Path db;
  private Vertx vertx;

  @BeforeEach
  void setUp() throws Exception {
    db = dir.resolve("riders.sqlite");
    write("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)",
        "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 200) "
            + "INSERT INTO items SELECT n, 'item ' || n FROM g",
        "CREATE TABLE r (n INTEGER)",
        "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 10) INSERT INTO r SELECT n FROM g");
    vertx = Vertx.vertx();
    // two workers: one to be stuck behind, one to serve the riders sent back from it
    ConnectionConfig c = new ConnectionConfig("riders", Driver.SQLITE, null, db.toString(), null, null, null, 2, 256,
        DEADLINE_MS, 100, 1_000).withQueue(QueuePolicy.DEFAULT.withPipelineDepth(8).withRideMaxMs(RIDE_MAX_MS));
    // the same file where a read of a second's length still rides: one can be caught waiting behind another
    ConnectionConfig slowRides = new ConnectionConfig(LONG_RIDES, Driver.SQLITE, null, db.toString(), null, null, null, 2,
        256, DEADLINE_MS, 100, 1_000).withQueue(QueuePolicy.DEFAULT.withPipelineDepth(8).withRideMaxMs(10_000));
    vertx.deployVerticle(new SqlExecutorVerticle(SqliteEngine.INSTANCE, List.of(c, slowRides)))
        .await(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().await(20, TimeUnit.SECONDS);
  }

  /** The test's own writes, through its own connection: the read-only workers see them next time. */
  private void write(String... statements) throws Exception {
    try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = conn.createStatement()) {
      for (String sql : statements) {
        st.execute(sql);
      }
    }
  }

  private static JsonObject q(String sql) {
    return q("riders", sql);
  }

  private static JsonObject q(String connection, String sql) {
    return SqlBus.queryRequest(connection, UUID.randomUUID().toString(), sql, 10);
  }

  private Future<JsonObject> execute(JsonObject req) {
    SqlAnalyzer.analyseNow(Engines.of(Driver.SQLITE).dialect(), req.getString("sql"));
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.SQLITE), req,
        new DeliveryOptions().setSendTimeout(60_000)).map(m -> m.body());
  }

  private JsonObject ok(String sql) throws Exception {
    return execute(q(sql)).await(60, TimeUnit.SECONDS);
  }

  private JsonObject info() throws Exception {
    return info("riders");
  }

  private JsonObject info(String connection) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.info(Driver.SQLITE), new JsonObject().put("connectionId", connection))
        .await(10, TimeUnit.SECONDS).body();
  }

  private JsonObject pool() throws Exception {
    return info().getJsonObject("pool");
  }

  private static String cell(JsonObject result) {
    return String.valueOf(result.getJsonArray("rows").getJsonArray(0).getValue(0));
  }

  private static String byId(int id) {
    return "SELECT name FROM items WHERE id = " + id;
  }

  /** Integer overflow: an error SQLite raises while stepping, for this one statement only. */
  private static final String FAILING = "SELECT abs(-9223372036854775807 - 1) AS x FROM items WHERE id = 7";
  private static final String SLOW = "SELECT count(*) FROM r a, r b, r c, r d";

  @Test
  void ridersStackOnABusyWorkerAndSurviveTheKillOfTheReadTheyWaitedOn() throws Exception {
    int calls = 40;
    for (int round = 0; round < 2; round++) {
      // the second round is the record the pool decides on: each text quick
      for (int i = 1; i <= calls; i++) {
        assertEquals("item " + i, cell(ok(byId(i))));
      }
      failure(execute(q(FAILING)));
      assertEquals("10000", cell(ok(SLOW)));
    }
    // the slow text turns slow (10^4 rows to 1.3 * 10^9): riding, it runs on one worker
    write("WITH RECURSIVE g(n) AS (SELECT 11 UNION ALL SELECT n + 1 FROM g WHERE n < 190) INSERT INTO r SELECT n FROM g");
    Future<JsonObject> slow = execute(q(SLOW));
    awaitInUse(1);
    // well ahead of the riders' own deadlines, so the ones sent back have time to run elsewhere
    Thread.sleep(1_500);
    List<Future<JsonObject>> all = new ArrayList<>();
    List<JsonObject> requests = new ArrayList<>();
    List<Future<JsonObject>> failing = new ArrayList<>();
    for (int i = 1; i <= calls; i++) {
      requests.add(q(byId(i)));
      all.add(execute(requests.get(i - 1)));
      if (i % 8 == 0) {
        failing.add(execute(q(FAILING)));
      }
    }
    long stacked = awaitStackedBehind();
    // one of the riders stuck behind the slow read is cancelled: it had not started, so it is
    // answered at once and the worker (and the slow read on it) lives on
    int stuck = awaitStuckRider(all);
    JsonObject beforeCancel = pool();
    long t0 = System.nanoTime();
    assertTrue(cancel(requests.get(stuck)));
    SqlError cancelled = failure(all.get(stuck));
    long cancelMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(ErrorType.CANCELLED, cancelled.type(), cancelled.toJson().encode());
    assertTrue(cancelMs < 1_000, "answered at once: " + cancelMs + " ms");
    assertEquals(beforeCancel.getLong("requeued"), pool().getLong("requeued"), "no worker was killed for it");
    assertTrue(!slow.isComplete(), "the slow read still runs");

    SqlError late = failure(slow);
    assertEquals(ErrorType.TIMEOUT, late.type(), late.toJson().encode());
    for (int i = 1; i <= calls; i++) {
      if (i - 1 != stuck) {
        assertEquals("item " + i, cell(all.get(i - 1).await(30, TimeUnit.SECONDS)), "call " + i + "'s own row");
      }
    }
    for (Future<JsonObject> f : failing) {
      SqlError e = failure(f);
      assertEquals(ErrorType.QUERY_ERROR, e.type(), e.toJson().encode());
      assertTrue(e.getMessage().contains("integer overflow"), e.getMessage());
    }
    long requeued = pool().getLong("requeued");
    assertTrue(requeued >= 1, "the riders behind the killed read were queued again: " + requeued);
    System.out.printf("[sqlite] %d riders stacked behind a read that turned slow; one cancelled there, answered"
        + " after %d ms without a kill; %d sent back when the read was killed at its deadline, all answered%n",
        stacked, cancelMs, requeued);

    // it ran to its deadline: now it runs alone, and nothing stacks behind it
    Future<JsonObject> again = execute(q(SLOW));
    awaitInUse(1);
    Future<JsonObject> next = execute(q(byId(3)));
    assertEquals("item 3", cell(next.await(30, TimeUnit.SECONDS)), "served by the other worker");
    JsonObject p = pool();
    assertEquals(0, p.getInteger("pipelined"), "the slow read does not ride: " + p.encode());
    assertEquals(1, p.getInteger("inUse"), p.encode());
    assertEquals(ErrorType.TIMEOUT, failure(again).type());
  }

  /** Five copies of r: quick while r has 10 rows (10^5), endless once it has 200 (3.2 * 10^11). */
  private static final String RUNAWAY = "SELECT count(*) FROM r a, r b, r c, r d, r e";

  private void makeRFiveHundredTimesLonger() throws Exception {
    write("WITH RECURSIVE g(n) AS (SELECT 11 UNION ALL SELECT n + 1 FROM g WHERE n < 200) INSERT INTO r SELECT n FROM g");
  }

  @Test
  void aReadCancelledMomentsAfterItStartedDoesNotRideNextTime() throws Exception {
    for (int round = 0; round < 2; round++) {
      assertEquals("100000", cell(ok(RUNAWAY)));
    }
    makeRFiveHundredTimesLonger();
    assertEquals(1, ridersWhileItRunsThenCancelled(RUNAWAY), "quick last time: it rides");
    // it ran for a few milliseconds before its worker was killed: that is no record of being quick
    assertEquals(0, ridersWhileItRunsThenCancelled(RUNAWAY), "cut short, its time is unknown: it runs alone");
  }

  /** Starts {@code sql}, counts the riders once a worker has it, and cancels it. */
  private int ridersWhileItRunsThenCancelled(String sql) throws Exception {
    JsonObject req = q(sql);
    Future<JsonObject> running = execute(req);
    awaitInUse(1);
    int riders = pool().getInteger("pipelined");
    assertTrue(cancel(req));
    assertEquals(ErrorType.CANCELLED, failure(running).type());
    return riders;
  }

  @Test
  void aRiderCancelledWhileItWaitedIsStoppedAtADeadlinesLengthOnceItsWorkerStartsIt() throws Exception {
    String moment = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) "
        + "SELECT count(*) FROM c";
    for (int round = 0; round < 2; round++) {
      assertEquals("2000000", cell(execute(q(LONG_RIDES, moment)).await(60, TimeUnit.SECONDS)));
      assertEquals("100000", cell(execute(q(LONG_RIDES, RUNAWAY)).await(60, TimeUnit.SECONDS)));
    }
    makeRFiveHundredTimesLonger();
    // one worker taken by a read never timed (so it rides nowhere) until its deadline; the other
    // runs the moment's read, and the runaway, quick last time, rides behind it
    Future<JsonObject> alone = execute(q(LONG_RIDES, "SELECT count(*) FROM r a, r b, r c, r d, r e, r f"));
    awaitLongRidesInUse(1);
    Future<JsonObject> head = execute(q(LONG_RIDES, moment));
    // a worker answers the lines it read together in one write: the runaway must come after the
    // worker has read the moment's line, or the moment's answer would wait for it
    Thread.sleep(100);
    JsonObject orphan = q(LONG_RIDES, RUNAWAY);
    Future<JsonObject> behind = execute(orphan);
    long until = System.currentTimeMillis() + 2_000;
    while (info(LONG_RIDES).getJsonObject("pool").getInteger("pipelined") < 2) {
      if (System.currentTimeMillis() > until || head.isComplete()) {
        fail("the runaway did not ride behind the read: " + info(LONG_RIDES).encode());
      }
      Thread.sleep(2);
    }
    // it has not started: answered now; the worker will start it once the read ahead answers
    assertTrue(cancel(orphan));
    assertEquals(ErrorType.CANCELLED, failure(behind).type());
    assertTrue(!head.isComplete(), "the read ahead answered before the cancel; make it longer");
    assertEquals("2000000", cell(head.await(30, TimeUnit.SECONDS)));
    long started = System.nanoTime();
    assertEquals(ErrorType.TIMEOUT, failure(alone).type());
    until = System.currentTimeMillis() + DEADLINE_MS + 5_000;
    while (info(LONG_RIDES).getJsonObject("pool").getInteger("inUse") > 0) {
      if (System.currentTimeMillis() > until) {
        fail("a worker still runs the cancelled rider: " + info(LONG_RIDES).encode());
      }
      Thread.sleep(50);
    }
    long heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    // the worker is out of the pool at once; its exit, and with it the count of restarts, follows
    until = System.currentTimeMillis() + 10_000;
    while (info(LONG_RIDES).getLong("restarts") < 2) {
      if (System.currentTimeMillis() > until) {
        fail("the read alone and the runaway were not both killed: " + info(LONG_RIDES).encode());
      }
      Thread.sleep(50);
    }
    assertEquals("item 5", cell(execute(q(LONG_RIDES, byId(5))).await(60, TimeUnit.SECONDS)));
    System.out.printf("[sqlite] a cancelled rider that had turned into a runaway held its worker %d ms after it"
        + " started, then its worker was killed%n", heldMs);
  }

  private void awaitLongRidesInUse(int n) throws Exception {
    long until = System.currentTimeMillis() + 10_000;
    while (info(LONG_RIDES).getJsonObject("pool").getInteger("inUse") < n) {
      if (System.currentTimeMillis() > until) {
        fail("no worker took the read");
      }
      Thread.sleep(10);
    }
  }

  private boolean cancel(JsonObject req) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.cancel(Driver.SQLITE),
        new JsonObject().put("queryId", req.getString("queryId"))).await(10, TimeUnit.SECONDS).body()
        .getBoolean("cancelled");
  }

  /** A rider still unanswered once the other worker has served everything it took: one stuck behind. */
  private static int awaitStuckRider(List<Future<JsonObject>> all) throws Exception {
    Thread.sleep(300);
    for (int i = all.size() - 1; i >= 0; i--) {
      if (!all.get(i).isComplete()) {
        return i;
      }
    }
    fail("every rider was answered while the slow read ran");
    return -1;
  }

  private void awaitInUse(int n) throws Exception {
    long until = System.currentTimeMillis() + 10_000;
    while (pool().getInteger("inUse") < n) {
      if (System.currentTimeMillis() > until) {
        fail("no worker took the read");
      }
      Thread.sleep(10);
    }
  }

  /**
   * Riders on the slow read's worker: the quick ones on the other worker come and go, the ones
   * stuck behind the slow read stay until its deadline, so some are seen.
   */
  private long awaitStackedBehind() throws Exception {
    long until = System.currentTimeMillis() + 2_000;
    long most = 0;
    while (System.currentTimeMillis() < until) {
      for (Object w : info().getJsonArray("workers")) {
        most = Math.max(most, ((JsonObject) w).getInteger("inFlight", 0) - 1);
      }
      if (most > 0) {
        return most;
      }
      Thread.sleep(10);
    }
    fail("no rider stacked behind the slow read");
    return 0;
  }
}
