package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConnectionConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The executor contract every network engine must pass, driven over the event bus exactly as the
 * gateway will. Subclasses supply the engine's SQL and a scratch schema/database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class EngineExecutorContract {

  protected Vertx vertx;
  protected Pool admin;
  protected final List<String> deployments = new ArrayList<>();

  protected abstract Driver driver();

  /** Creates the scratch schema/database and the {@code admin} pool; returns nothing. */
  protected abstract void createScratch() throws Exception;

  protected abstract void dropScratch() throws Exception;

  protected abstract ConnectionConfig config(String id, long timeoutMs, int poolSize, int maxWaitQueue);

  protected abstract SqlExecutorVerticle verticle(List<ConnectionConfig> configs);

  /** A table name in the scratch area, qualified as queries must write it. */
  protected abstract String table(String name);

  protected abstract String sleepSql(int seconds, String marker);

  protected abstract String cpuSql(String marker);

  /** Count of running statements whose text contains {@code marker} (excluding the probe). */
  protected abstract String activitySql(String marker);

  /** Statement creating {@code big(n)} with {@code rows} rows. */
  protected abstract List<String> bigTableSql(int rows);

  /**
   * Session state a call could try to leave on its pooled connection, one entry each: the
   * statement that sets it, a query that reads it back on the next call, and the value that query
   * must NOT return (the leaked one).
   */
  protected abstract List<String[]> sessionState();

  /** A query (run as admin) counting what a call's session still holds: locks, usually. */
  protected abstract String heldLocksSql();

  @BeforeAll
  void setUpScratch() throws Exception {
    vertx = Vertx.vertx();
    createScratch();
    exec("CREATE TABLE " + table("customers") + " (id INT PRIMARY KEY, name VARCHAR(40), email VARCHAR(80))");
    exec("INSERT INTO " + table("customers") + " VALUES (1, 'Ada', 'ada@example.com'), (2, 'Bob', NULL)");
    for (String s : bigTableSql(50_000)) {
      exec(s);
    }
  }

  /** One executor per driver owns the bus addresses, so each test undeploys its own. */
  @AfterEach
  void undeploy() throws Exception {
    for (String id : deployments) {
      vertx.undeploy(id).await(10, TimeUnit.SECONDS);
    }
    deployments.clear();
  }

  @AfterAll
  void tearDownScratch() throws Exception {
    try {
      dropScratch();
      admin.close().await(5, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  protected void exec(String sql) throws Exception {
    admin.query(sql).execute().await(30, TimeUnit.SECONDS);
  }

  protected long count(String sql) throws Exception {
    return Long.parseLong(String.valueOf(admin.query(sql).execute().await(10, TimeUnit.SECONDS).iterator().next().getValue(0)));
  }

  protected SqlExecutorVerticle deploy(ConnectionConfig... configs) throws Exception {
    SqlExecutorVerticle v = verticle(List.of(configs));
    deployments.add(vertx.deployVerticle(v).await(20, TimeUnit.SECONDS));
    return v;
  }

  protected Future<JsonObject> execute(JsonObject req) {
    // analysed ahead (the executor finds it cached): the tests time the engine, not a cold parser
    dev.sluice.sql.analysis.SqlAnalyzer.analyseNow(dev.sluice.engine.Engines.of(driver()).dialect(),
        req.getString("sql"));
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver()), req,
        new DeliveryOptions().setSendTimeout(60_000)).map(m -> m.body());
  }

  protected JsonObject ok(JsonObject req) throws Exception {
    return execute(req).await(60, TimeUnit.SECONDS);
  }

  protected SqlError err(JsonObject req) {
    return failure(execute(req));
  }

  /** The error {@code f} failed with (within 60 s); fails the test when it succeeded. */
  public static SqlError failure(Future<?> f) {
    try {
      f.await(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      return SqlError.from(e);
    }
    return fail("expected a failure");
  }

  /** Runs {@code sql} past the guard, for checks that read engine internals (see runUnguarded). */
  protected static JsonObject unguarded(SqlExecutorVerticle v, String connectionId, String sql) throws Exception {
    return v.runUnguarded(connectionId, sql).await(30, TimeUnit.SECONDS);
  }

  protected static JsonObject q(String connectionId, String sql, int maxRows) {
    return SqlBus.queryRequest(connectionId, UUID.randomUUID().toString(), sql, maxRows);
  }

  protected interface Condition {
    boolean holds() throws Exception;
  }

  /** Waits (up to 20 s) for what a test needs in place, instead of sleeping and hoping. */
  protected static void awaitCondition(Condition c, String what) throws Exception {
    long until = System.currentTimeMillis() + 20_000;
    while (!c.holds()) {
      if (System.currentTimeMillis() > until) {
        fail("not reached within 20 s: " + what);
      }
      Thread.sleep(20);
    }
  }

  /** Calls waiting for a pooled connection of {@code connectionId}, from the executor's info. */
  protected long poolWaiting(String connectionId) throws Exception {
    JsonObject info = vertx.eventBus().<JsonObject>request(SqlBus.info(driver()),
        new JsonObject().put("connectionId", connectionId)).await(10, TimeUnit.SECONDS).body();
    return info.getJsonObject("pool").getLong("waiting", 0L);
  }

  protected void awaitGone(String marker) throws Exception {
    long until = System.currentTimeMillis() + 3_000;
    while (count(activitySql(marker)) > 0) {
      if (System.currentTimeMillis() > until) {
        fail("statement " + marker + " still running on the server");
      }
      Thread.sleep(100);
    }
  }

  private static String marker() {
    return "m" + Long.toHexString(System.nanoTime());
  }

  @Test
  void basicQueryShape() throws Exception {
    deploy(config("basic", 5_000, 2, 4));
    JsonObject r = ok(q("basic", "SELECT id, name FROM " + table("customers") + " ORDER BY id", 10));
    assertEquals(new JsonArray().add("id").add("name"), r.getJsonArray("headers"));
    assertEquals(2, r.getJsonArray("headerTypes").size());
    assertEquals(new JsonArray().add(new JsonArray().add(1).add("Ada")).add(new JsonArray().add(2).add("Bob")), r.getJsonArray("rows"));
    assertEquals(2, r.getInteger("rowCount"));
    assertFalse(r.getBoolean("truncated"));
    assertNotNull(r.getLong("executionTimeMs"));
    assertNotNull(r.getString("queryId"));

    SqlError unknown = err(q("nope", "SELECT 1", 1));
    assertEquals(ErrorType.INVALID_ARGUMENT, unknown.type());
    assertTrue(unknown.getMessage().contains("basic"), unknown.getMessage());
  }

  @Test
  void truncatesAtMaxRowsWithProgress() throws Exception {
    deploy(config("trunc", 20_000, 2, 4));
    String address = "test.progress." + UUID.randomUUID();
    List<JsonObject> progress = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(address, m -> progress.add(m.body())).completion().await(5, TimeUnit.SECONDS);
    JsonObject r = ok(q("trunc", "SELECT n FROM " + table("big") + " ORDER BY n", 5_000).put("progressAddress", address));
    assertEquals(5_000, r.getInteger("rowCount"));
    assertTrue(r.getBoolean("truncated"));
    assertEquals(5_000, r.getJsonArray("rows").size());
    JsonObject all = ok(q("trunc", "SELECT count(*) FROM " + table("big"), 5));
    assertEquals("50000", String.valueOf(all.getJsonArray("rows").getJsonArray(0).getValue(0)));
    Thread.sleep(200);
    List<String> stages = progress.stream().map(p -> p.getString("stage")).distinct().toList();
    assertTrue(stages.containsAll(List.of("validating", "executing", "fetching")), stages.toString());
    // clamped to the ceiling (config ceiling is 10_000)
    JsonObject capped = ok(q("trunc", "SELECT n FROM " + table("big"), 1_000_000));
    assertEquals(10_000, capped.getInteger("rowCount"));
    assertTrue(capped.getBoolean("truncated"));
  }

  @Test
  void runawaySleepHitsDeadlineWhileOthersAnswer() throws Exception {
    runaway(sleepSql(30, "%s"));
  }

  @Test
  void runawayCpuHitsDeadline() throws Exception {
    runaway(cpuSql("%s"));
  }

  private void runaway(String template) throws Exception {
    String id = "runaway" + marker();
    deploy(config(id, 1_000, 2, 4));
    // a cold pool and a cold SQL parser are not what this measures: the statement is analysed ahead
    ok(q(id, "SELECT 1", 1));
    String m = marker();
    dev.sluice.sql.analysis.SqlAnalyzer.analyseNow(dev.sluice.engine.Engines.of(driver()).dialect(),
        String.format(template, m));
    long t0 = System.nanoTime();
    Future<JsonObject> slow = execute(q(id, String.format(template, m), 10));
    Thread.sleep(200);
    long c0 = System.nanoTime();
    JsonObject cheap = ok(q(id, "SELECT 1", 1));
    long cheapMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c0);
    assertEquals(1, cheap.getInteger("rowCount"));
    System.out.printf("[%s] cheap query beside the runaway answered in %d ms%n", driver(), cheapMs);
    SqlError e = failure(slow);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    System.out.printf("[%s] runaway %s ended after %d ms: %s%n", driver(), template.substring(0, Math.min(40, template.length())), ms, e.toJson().encode());
    assertEquals(ErrorType.TIMEOUT, e.type(), e.toJson().encode());
    assertEquals("query exceeded 1s", e.getMessage());
    assertTrue(ms < 2_000, "ended after " + ms + " ms");
    awaitGone(m);
  }

  /** The second caller waits for the only connection; the gateway timer, not the engine, ends it. */
  @Test
  void gatewayTimerCoversQueueWait() throws Exception {
    deploy(config("queued", 1_000, 1, 2));
    String m1 = marker();
    String m2 = marker();
    Future<JsonObject> first = execute(q("queued", String.format(sleepSql(5, "%s"), m1), 1));
    Thread.sleep(100);
    long t0 = System.nanoTime();
    SqlError second = err(q("queued", String.format(sleepSql(5, "%s"), m2), 1));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    System.out.printf("[%s] queued caller timed out after %d ms: %s%n", driver(), ms, second.toJson().encode());
    assertEquals(ErrorType.TIMEOUT, second.type(), second.toJson().encode());
    assertEquals("query exceeded 1s", second.getMessage());
    assertTrue(ms < 2_000, "queued caller ended after " + ms + " ms");
    assertEquals(ErrorType.TIMEOUT, failure(first).type());
    awaitGone(m1);
    awaitGone(m2);
  }

  @Test
  void cancelStopsBackend() throws Exception {
    deploy(config("cancel", 30_000, 2, 4));
    String m = marker();
    JsonObject req = q("cancel", String.format(sleepSql(30, "%s"), m), 10);
    Future<JsonObject> slow = execute(req);
    long until = System.currentTimeMillis() + 5_000;
    while (count(activitySql(m)) == 0 && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    long t0 = System.nanoTime();
    JsonObject reply = vertx.eventBus().<JsonObject>request(SqlBus.cancel(driver()),
        new JsonObject().put("queryId", req.getString("queryId"))).await(10, TimeUnit.SECONDS).body();
    assertEquals(true, reply.getBoolean("cancelled"));
    SqlError e = failure(slow);
    System.out.printf("[%s] cancel answered after %d ms: %s%n", driver(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), e.toJson().encode());
    assertEquals(ErrorType.CANCELLED, e.type());
    awaitGone(m);
    JsonObject again = vertx.eventBus().<JsonObject>request(SqlBus.cancel(driver()),
        new JsonObject().put("queryId", req.getString("queryId"))).await(10, TimeUnit.SECONDS).body();
    assertEquals(false, again.getBoolean("cancelled"));
  }

  @Test
  void readOnlySecondWall() throws Exception {
    SqlExecutorVerticle v = deploy(config("wall", 5_000, 2, 4));
    for (String sql : List.of("INSERT INTO " + table("customers") + " VALUES (3, 'Eve', NULL)",
        "DELETE FROM " + table("customers"))) {
      SqlError e = failure(v.runUnguarded("wall", sql));
      assertEquals(ErrorType.VALIDATION_FAILED, e.type(), e.toJson().encode());
      assertNotNull(e.details().getValue("sql_state"));
    }
    assertEquals(2, count("SELECT count(*) FROM " + table("customers")));
  }

  /**
   * With the guard switched off, the protocol path itself must refuse a second statement: on every
   * mode the executor has (cursor read, read-whole, explain, checksum, approved template, write).
   */
  @Test
  void theDriverRefusesASecondStatementOnEveryPath() throws Exception {
    SqlExecutorVerticle v = deploy(config("one", 5_000, 2, 4));
    String victim = table("customers");
    List<SqlRequest> paths = List.of(
        SqlRequest.query("one", "SELECT 1; DELETE FROM " + victim, null, 5),
        SqlRequest.query("one", "SELECT 1; DELETE FROM " + victim, null, 5).withExplain(false),
        SqlRequest.query("one", "SELECT 1; DELETE FROM " + victim, null, 5).withChecksum(12),
        SqlRequest.query("one", "SELECT #{a} AS a; DELETE FROM " + victim, null, 5)
            .withParams(new JsonObject().put("a", 1)),
        SqlRequest.query("one", "DELETE FROM " + victim + " WHERE id = 99; DELETE FROM " + victim, null, 5)
            .withMode(SqlRequest.Mode.WRITE));
    for (SqlRequest r : paths) {
      SqlError e = failure(v.runUnguarded(r));
      System.out.printf("[%s] %s refused by the engine: %s%n", driver(), r.mode().wireName()
          + (r.params() != null ? " (template)" : ""), e.getMessage());
      assertEquals(2, count("SELECT count(*) FROM " + victim), r.mode() + ": the second statement ran");
    }
  }

  /**
   * With the guard switched off, whatever a call leaves on its session (locks, settings, variables,
   * a read-write transaction mode) is gone before the pooled connection serves the next call.
   */
  @Test
  void noSessionStateSurvivesACall() throws Exception {
    SqlExecutorVerticle v = deploy(config("state", 5_000, 1, 4));
    for (String[] state : sessionState()) {
      try {
        v.runUnguarded("state", state[0]).await(30, TimeUnit.SECONDS);
      } catch (Exception refusedByTheEngine) {
        // the engine's own walls may refuse setting it at all; the read-back below still runs
      }
      Object seen;
      try {
        seen = v.runUnguarded("state", state[1]).await(30, TimeUnit.SECONDS).getJsonArray("rows").getJsonArray(0)
            .getValue(0);
      } catch (Exception gone) {
        seen = "(not there: " + SqlError.from(gone).getMessage() + ")";
      }
      System.out.printf("[%s] after %s the next call reads %s%n", driver(), state[0], seen);
      assertFalse(state[2].equals(String.valueOf(seen)), state[0] + " survived the call");
      assertEquals(0, count(heldLocksSql()), "a lock survived: " + state[0]);
    }
    // the attack from the design notes: switch the session to read-write, then write
    SqlError e = failure(v.runUnguarded("state", "DELETE FROM " + table("customers")));
    assertEquals(ErrorType.VALIDATION_FAILED, e.type(), e.toJson().encode());
    assertEquals(2, count("SELECT count(*) FROM " + table("customers")));
  }

  @Test
  void fullQueueAnswersBusy() throws Exception {
    deploy(config("busy", 10_000, 1, 1));
    ok(q("busy", "SELECT 1", 1)); // the one connection exists before the race starts
    String ma = marker();
    Future<JsonObject> a = execute(q("busy", String.format(sleepSql(2, "%s"), ma), 1));
    awaitCondition(() -> count(activitySql(ma)) > 0, "the first call running on the engine");
    Future<JsonObject> b = execute(q("busy", String.format(sleepSql(2, "%s"), marker()), 1));
    awaitCondition(() -> poolWaiting("busy") >= 1, "the second call waiting for the connection");
    long t0 = System.nanoTime();
    SqlError c = err(q("busy", String.format(sleepSql(2, "%s"), marker()), 1));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(ErrorType.BUSY, c.type(), c.toJson().encode());
    assertTrue(c.details().getLong("retryAfterMs") > 0);
    assertTrue(ms < 500, "busy took " + ms + " ms");
    a.await(10, TimeUnit.SECONDS);
    b.await(10, TimeUnit.SECONDS);
  }

  @Test
  void errorsCarryPositionAndSuggestions() throws Exception {
    deploy(config("errs", 5_000, 2, 4));
    SqlError syntax = err(q("errs", "SELECT id FROM " + table("customers") + " WHERE", 1));
    // the guard's parser reads the statement first, so the position comes from it
    assertEquals(ErrorType.SYNTAX_ERROR, syntax.type(), syntax.toJson().encode());
    assertEquals("unparseable", syntax.details().getString("rule"));
    assertTrue(syntax.details().getInteger("position") > 0, syntax.toJson().encode());

    SqlError table = err(q("errs", "SELECT * FROM " + table("custmers"), 1));
    assertEquals(ErrorType.TABLE_NOT_FOUND, table.type(), table.toJson().encode());
    assertEquals(table("customers"), table.details().getJsonArray("suggestions").getJsonObject(0).getString("correction"));

    SqlError column = err(q("errs", "SELECT emial FROM " + table("customers"), 1));
    assertEquals(ErrorType.COLUMN_NOT_FOUND, column.type(), column.toJson().encode());
    assertEquals("email", column.details().getJsonArray("suggestions").getJsonObject(0).getString("correction"));
    assertFalse(column.getMessage().contains("\tat "), "no stack trace");
  }


  @Test
  void explainReturnsPlan() throws Exception {
    deploy(config("explain", 5_000, 2, 4));
    for (boolean analyze : List.of(false, true)) {
      JsonObject r = ok(q("explain", "SELECT * FROM " + table("big") + " WHERE n > 10", 1).put("mode", "explain").put("analyze", analyze));
      System.out.printf("[%s] explain analyze=%s plan=%s estimatedRows=%s estimatedCost=%s%n", driver(), analyze,
          r.getJsonArray("plan").encode(), r.getValue("estimatedRows"), r.getValue("estimatedCost"));
      assertFalse(r.getJsonArray("plan").isEmpty(), r.encode());
      assertNotNull(r.getValue("planJson"), r.encode());
      assertNotNull(r.getValue("estimatedRows"), r.encode());
      assertNotNull(r.getString("format"));
    }
  }

  @Test
  void closedPortIsConnectionErrorAndDown() throws Exception {
    ConnectionConfig good = config("dead", 5_000, 1, 2);
    String url = good.url().replaceFirst("@[^/]+/", "@127.0.0.1:1/");
    ConnectionConfig dead = new ConnectionConfig("dead", good.driver(), url, null, good.user(), good.password(), null,
        1, 2, 5_000, 100, 1_000);
    deploy(dead);
    long t0 = System.nanoTime();
    SqlError e = err(q("dead", "SELECT 1", 1));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(ErrorType.CONNECTION_ERROR, e.type(), e.toJson().encode());
    assertTrue(ms < 4_000, "took " + ms);
    JsonObject info = vertx.eventBus().<JsonObject>request(SqlBus.info(driver()), new JsonObject().put("connectionId", "dead"))
        .await(10, TimeUnit.SECONDS).body();
    assertEquals("down", info.getString("status"), info.encode());
    assertNotNull(info.getString("error"));
  }

  @Test
  void outageFailsFastAndPoolRecovers() throws Exception {
    ConnectionConfig direct = config("outage", 5_000, 2, 4);
    OutageProxy proxy = OutageProxy.inFrontOf(vertx, direct);
    try {
      proxy.up();
      deploy(proxy.route(direct));
      assertEquals(1, ok(q("outage", "SELECT 1", 1)).getInteger("rowCount"));

      proxy.down();
      long t0 = System.nanoTime();
      SqlError e = err(q("outage", "SELECT 1", 1));
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(ErrorType.CONNECTION_ERROR, e.type(), e.toJson().encode());
      assertTrue(ms < 4_000, "outage answered after " + ms + " ms");
      JsonObject info = vertx.eventBus().<JsonObject>request(SqlBus.info(driver()), new JsonObject().put("connectionId", "outage"))
          .await(10, TimeUnit.SECONDS).body();
      assertEquals("down", info.getString("status"), info.encode());

      proxy.up();
      JsonObject back = null;
      for (int attempt = 0; attempt < 10 && back == null; attempt++) {
        try {
          back = ok(q("outage", "SELECT 1", 1));
        } catch (Exception stillDown) {
          Thread.sleep(300);
        }
      }
      assertNotNull(back, "pool did not recover after the server came back");
      assertEquals(1, back.getInteger("rowCount"));
    } finally {
      proxy.close();
    }
  }

  /**
   * A connection lost under a running call answers connection_error at once and gives its pool
   * slot back. The client never answers what is queued on a lost connection: the release's
   * ROLLBACK used to wait for it, so the caller got a timeout at its deadline and the slot stayed
   * taken for good (with a pool of one, every later call timed out).
   */
  @Test
  void aConnectionLostUnderACallAnswersAtOnceAndFreesItsSlot() throws Exception {
    lostUnder("lostsleep", sleepSql(30, "%s"));
  }

  /** Stops what a lost client left running on the server (it notices only when it next writes). */
  protected void killOrphan(String marker) throws Exception {}

  /** {@code statement} (with {@code %s} for its marker) on a pool of one, cut by the relay while it runs. */
  protected void lostUnder(String id, String statement) throws Exception {
    ConnectionConfig direct = config(id, 30_000, 1, 8);
    OutageProxy proxy = OutageProxy.inFrontOf(vertx, direct);
    try {
      proxy.up();
      deploy(proxy.route(direct));
      String marker = "m" + Long.toHexString(System.nanoTime());
      Future<JsonObject> slow = execute(q(id, String.format(statement, marker), 10));
      awaitCondition(() -> count(activitySql(marker)) > 0, "the statement running");
      long t0 = System.nanoTime();
      proxy.down();
      SqlError lost = failure(slow);
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(ErrorType.CONNECTION_ERROR, lost.type(), lost.toJson().encode());
      assertTrue(ms < 5_000, "answered after " + ms + " ms");
      killOrphan(marker); // the server only notices the lost client when it next writes

      proxy.up();
      JsonObject back = null;
      Throwable last = null;
      for (int attempt = 0; attempt < 20 && back == null; attempt++) {
        try {
          back = ok(q(id, "SELECT id FROM " + table("customers"), 10));
        } catch (Exception | AssertionError stillDown) {
          last = stillDown;
          Thread.sleep(250);
        }
      }
      assertEquals(2, back == null ? -1 : back.getInteger("rowCount"), "the only slot after the loss: " + last);
    } finally {
      proxy.close();
    }
  }

  @Test
  void infoReportsUp() throws Exception {
    deploy(config("info", 5_000, 3, 4));
    JsonObject info = vertx.eventBus().<JsonObject>request(SqlBus.info(driver()), new JsonObject().put("connectionId", "info"))
        .await(10, TimeUnit.SECONDS).body();
    assertEquals("up", info.getString("status"), info.encode());
    assertNotNull(info.getString("serverVersion"));
    assertNotNull(info.getString("flavour"));
    assertEquals(true, info.getBoolean("readOnly"));
    assertEquals(3, info.getJsonObject("pool").getInteger("size"));
  }
}
