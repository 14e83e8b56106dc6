package dev.sluice.sql.pool;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The order in which a connection's wait queue serves calls, on a real engine through the executor:
 * a pool of one, held by a long blocker while the calls under test queue up, so the order calls end
 * in is the order the queue chose. The same scenario under FIFO is the control that shows the test
 * can fail. Asserts orders and counts, never durations.
 */
public abstract class FairSharingContract {

  protected Vertx vertx;

  protected abstract Driver driver();

  /** A connection of {@code poolSize} pooled connections (or SQLite workers) with this queue policy. */
  protected abstract ConnectionConfig config(String id, int poolSize, int maxWaitQueue, QueuePolicy policy)
      throws Exception;

  protected abstract SqlExecutorVerticle verticle(List<ConnectionConfig> configs);

  /** A statement that keeps the engine busy for about {@code seconds}. */
  protected abstract String busySql(double seconds);

  @BeforeEach
  void startVertx() throws Exception {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stopVertx() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }

  @Test
  void aLightCallPassesQueuedHeavyOnesOfTheSamePrincipal() throws Exception {
    deploy(config("fair", 1, 64, QueuePolicy.DEFAULT), config("fifo", 1, 64, QueuePolicy.DEFAULT.withOrder(QueuePolicy.Order.FIFO)));
    for (String id : List.of("fair", "fifo")) {
      // the queue learns what each statement costs from its previous calls
      call(id, "p", "warm", busySql(0.2)).await(60, TimeUnit.SECONDS);
      call(id, "p", "warm", "SELECT 1").await(60, TimeUnit.SECONDS);
      List<String> ended = Collections.synchronizedList(new ArrayList<>());
      Future<JsonObject> blocker = call(id, "p", "blocker", busySql(3));
      awaitRunning(id, blocker);
      List<Future<JsonObject>> all = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        all.add(track(call(id, "p", "heavy-" + i, busySql(0.2)), ended, "heavy-" + i));
      }
      awaitWaiting(id, 3);
      all.add(track(call(id, "p", "light", "SELECT 1"), ended, "light"));
      awaitWaiting(id, 4);
      Future.all(all).await(120, TimeUnit.SECONDS);
      blocker.await(60, TimeUnit.SECONDS);
      if (id.equals("fair")) {
        assertEquals("light", ended.get(0), "fair: the short call goes before the queued long ones: " + ended);
      } else {
        assertEquals(List.of("heavy-1", "heavy-2", "heavy-3", "light"), ended, "fifo: arrival order");
      }
      long queuedMs = all.get(3).result().getLong("queuedMs");
      assertTrue(queuedMs >= 0, "queuedMs in the result");
    }
  }

  @Test
  void aFloodingPrincipalGetsItsWeightNotItsSessionCount() throws Exception {
    Map<String, Integer> weights = Map.of("calm", 2, "flood", 1);
    deploy(config("weighted", 1, 256, QueuePolicy.DEFAULT.withWeights(weights)),
        config("arrival", 1, 256, QueuePolicy.DEFAULT.withWeights(weights).withOrder(QueuePolicy.Order.FIFO)));
    for (String id : List.of("weighted", "arrival")) {
      call(id, "warm", "warm", busySql(0.05)).await(60, TimeUnit.SECONDS);
      List<String> ended = Collections.synchronizedList(new ArrayList<>());
      Future<JsonObject> blocker = call(id, "block", "blocker", busySql(3));
      awaitRunning(id, blocker);
      List<Future<JsonObject>> all = new ArrayList<>();
      // the flood first: 12 sessions of 2 calls each, then the calm principal's 2 sessions of 4
      for (int s = 0; s < 12; s++) {
        for (int k = 0; k < 2; k++) {
          all.add(track(call(id, "flood", "flood-" + s, busySql(0.05)), ended, "flood"));
        }
      }
      awaitWaiting(id, 24);
      for (int s = 0; s < 2; s++) {
        for (int k = 0; k < 4; k++) {
          all.add(track(call(id, "calm", "calm-" + s, busySql(0.05)), ended, "calm"));
        }
      }
      awaitWaiting(id, 32);
      Future.all(all).await(180, TimeUnit.SECONDS);
      blocker.await(60, TimeUnit.SECONDS);
      long calmFirst12 = ended.subList(0, 12).stream().filter("calm"::equals).count();
      if (id.equals("weighted")) {
        // weight 2 of 3: two thirds of the pool while both wait, 8 of the first 12 (±1 for cost noise)
        assertTrue(calmFirst12 >= 7 && calmFirst12 <= 8, "calm ended " + calmFirst12 + " of the first 12: " + ended);
      } else {
        assertEquals(0, calmFirst12, "fifo: the flood first: " + ended);
      }
    }
  }

  @Test
  void theShortReserveKeepsASlotFromLongCallsForShortOnes() throws Exception {
    // short below 50 ms: the long statement, run once ahead, is long however fast the machine
    // (a statement never seen is expected to cost the pool's mean, which hovers near short_ms),
    // SELECT 1 short however loaded
    deploy(config("reserved", 2, 64, new QueuePolicy(QueuePolicy.Order.FAIR, 0, 1, 50, Map.of())));
    String heavy = busySql(2);
    call("reserved", "p", "warm", heavy).await(60, TimeUnit.SECONDS);
    // a statement never seen counts as long; from its second call on it is known to be short,
    // and a short call arriving is what raises the reserve
    call("reserved", "p", "warm", "SELECT 1").await(60, TimeUnit.SECONDS);
    call("reserved", "p", "warm", "SELECT 1").await(60, TimeUnit.SECONDS);
    Future<JsonObject> first = call("reserved", "p", "heavy-1", heavy);
    awaitCondition(() -> inUse("reserved") == 1, "the first long call running");
    Future<JsonObject> second = call("reserved", "p", "heavy-2", heavy);
    awaitWaiting("reserved", 1);
    assertEquals(1, inUse("reserved"), "the second long call waits although a slot is free");
    JsonObject light = call("reserved", "p", "light", "SELECT 1").await(60, TimeUnit.SECONDS);
    assertTrue(!first.isComplete() && !second.isComplete(), "the short call ran on the reserved slot at once");
    assertTrue(light.getLong("queuedMs") >= 0);
    Future.all(first, second).await(60, TimeUnit.SECONDS);
  }

  @Test
  void aFullQueueStillAnswersBusyPerPrincipalAndOverall() throws Exception {
    deploy(config("full", 1, 4, QueuePolicy.DEFAULT.withMaxPerPrincipal(2)));
    Future<JsonObject> blocker = call("full", "block", "blocker", busySql(3));
    awaitRunning("full", blocker);
    List<Future<JsonObject>> queued = new ArrayList<>();
    queued.add(call("full", "a", "a1", "SELECT 1"));
    queued.add(call("full", "a", "a2", "SELECT 1"));
    awaitWaiting("full", 2);
    SqlError principalFull = failure(call("full", "a", "a3", "SELECT 1"));
    assertEquals(ErrorType.BUSY, principalFull.type(), principalFull.toJson().encode());
    assertEquals("principal", principalFull.details().getString("scope"));
    assertTrue(principalFull.details().getLong("retryAfterMs") >= 250);

    queued.add(call("full", "b", "b1", "SELECT 1"));
    queued.add(call("full", "b", "b2", "SELECT 1"));
    awaitWaiting("full", 4);
    SqlError connectionFull = failure(call("full", "c", "c1", "SELECT 1"));
    assertEquals(ErrorType.BUSY, connectionFull.type(), connectionFull.toJson().encode());
    assertEquals("connection", connectionFull.details().getString("scope"));
    assertTrue(connectionFull.details().getLong("retryAfterMs") >= 250);

    Future.all(queued).await(60, TimeUnit.SECONDS);
    blocker.await(60, TimeUnit.SECONDS);
  }

  private void deploy(ConnectionConfig... configs) throws Exception {
    vertx.deployVerticle(verticle(List.of(configs))).await(60, TimeUnit.SECONDS);
  }

  private Future<JsonObject> call(String connectionId, String principal, String session, String sql) {
    // analysed ahead, so that analysis on a worker thread cannot reorder the calls under test
    SqlAnalyzer.analyseNow(Engines.of(driver()).dialect(), sql);
    JsonObject req = SqlBus.queryRequest(connectionId, UUID.randomUUID().toString(), sql, 10)
        .put("principal", principal).put("sessionId", session).put("timeoutMs", 60_000);
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver()), req,
        new DeliveryOptions().setSendTimeout(120_000)).map(m -> m.body());
  }

  private static Future<JsonObject> track(Future<JsonObject> f, List<String> ended, String name) {
    return f.onSuccess(r -> ended.add(name));
  }

  private static SqlError failure(Future<?> f) {
    try {
      f.await(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      return SqlError.from(e);
    }
    return fail("expected busy");
  }

  /** The blocker holds the one slot: it left the queue and has not ended. */
  private void awaitRunning(String connectionId, Future<JsonObject> blocker) throws Exception {
    awaitCondition(() -> waiting(connectionId) == 0 && inUse(connectionId) == 1, "the blocker running");
    if (blocker.isComplete()) {
      fail("the blocker ended before the calls under test queued: " + blocker.cause());
    }
  }

  private void awaitWaiting(String connectionId, int n) throws Exception {
    awaitCondition(() -> waiting(connectionId) == n, n + " calls waiting");
  }

  private long waiting(String connectionId) throws Exception {
    return pool(connectionId).getLong("waiting", 0L);
  }

  private long inUse(String connectionId) throws Exception {
    return pool(connectionId).getLong("inUse", 0L);
  }

  private JsonObject pool(String connectionId) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.info(driver()), new JsonObject().put("connectionId", connectionId))
        .await(10, TimeUnit.SECONDS).body().getJsonObject("pool");
  }

  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void awaitCondition(Condition c, String what) throws Exception {
    long until = System.currentTimeMillis() + 20_000;
    while (!c.holds()) {
      if (System.currentTimeMillis() > until) {
        fail("not reached within 20 s: " + what);
      }
      Thread.sleep(10);
    }
  }
}
