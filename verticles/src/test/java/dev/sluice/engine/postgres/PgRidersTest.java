package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static dev.sluice.sql.EngineExecutorContract.failure;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.engine.Engines;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.OutageProxy;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Small session-neutral reads riding shared connections on a real server (superuser connection):
 * fewer round trips, each rider its own answer, a stopped rider's neighbours untouched, and reads
 * that could change the session never riding along.
 */
class PgRidersTest {

  private static final String SCHEMA = TestDatabases.uniqueName("pgriders");
  /**
   * Far above what these reads take when quick (a millisecond), far below the 2 s they take when
   * slow: a busy test machine (a CPU-bound neighbour on both cores) stretched the quick ones past
   * the default 20 ms, and then they did not ride.
   */
  private static final long RIDE_MAX_MS = 500;
  private static Vertx vertx;
  private static Pool admin;
  private final List<String> deployments = new ArrayList<>();

  @BeforeAll
  static void setUp() throws Exception {
    TestDatabases.requirePostgres();
    vertx = Vertx.vertx();
    admin = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    exec("CREATE SCHEMA " + SCHEMA);
    exec("CREATE TABLE " + SCHEMA + ".items AS SELECT g AS id, 'item ' || g AS name FROM generate_series(1, 200) g");
    exec("ALTER TABLE " + SCHEMA + ".items ADD PRIMARY KEY (id)");
    exec("CREATE TABLE " + SCHEMA + ".r AS SELECT g AS n FROM generate_series(1, 10) g");
  }

  @AfterAll
  static void tearDown() throws Exception {
    try {
      exec("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
      admin.close().await(5, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @AfterEach
  void undeploy() throws Exception {
    for (String id : deployments) {
      vertx.undeploy(id).await(10, TimeUnit.SECONDS);
    }
    deployments.clear();
  }

  private static void exec(String sql) throws Exception {
    admin.query(sql).execute().await(30, TimeUnit.SECONDS);
  }

  private static String one(String sql) throws Exception {
    return String.valueOf(admin.query(sql).execute().await(10, TimeUnit.SECONDS).iterator().next().getValue(0));
  }

  private void deploy(ConnectionConfig c) throws Exception {
    deployments.add(vertx.deployVerticle(new SqlExecutorVerticle(PostgresEngine.INSTANCE, List.of(c)))
        .await(20, TimeUnit.SECONDS));
  }

  private static ConnectionConfig config(String id, String url, int poolSize, long timeoutMs, int depth) {
    return new ConnectionConfig(id, Driver.POSTGRES, url, null, null, null, null, poolSize, 256, timeoutMs, 100,
        10_000).withQueue(QueuePolicy.DEFAULT.withPipelineDepth(depth).withRideMaxMs(RIDE_MAX_MS));
  }

  private static JsonObject q(String id, String sql) {
    return SqlBus.queryRequest(id, UUID.randomUUID().toString(), sql, 10);
  }

  private static Future<JsonObject> execute(JsonObject req) {
    SqlAnalyzer.analyseNow(Engines.of(Driver.POSTGRES).dialect(), req.getString("sql"));
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.POSTGRES), req,
        new DeliveryOptions().setSendTimeout(60_000)).map(m -> m.body());
  }

  private static JsonObject ok(JsonObject req) throws Exception {
    return execute(req).await(60, TimeUnit.SECONDS);
  }

  private static String cell(JsonObject result) {
    return String.valueOf(result.getJsonArray("rows").getJsonArray(0).getValue(0));
  }

  private static String byId(int id) {
    return "SELECT name FROM " + SCHEMA + ".items WHERE id = " + id;
  }

  private static boolean cancel(JsonObject req) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.cancel(Driver.POSTGRES),
        new JsonObject().put("queryId", req.getString("queryId"))).await(10, TimeUnit.SECONDS).body()
        .getBoolean("cancelled");
  }

  /** Calls riding shared connections of {@code id} now, from the executor's info. */
  private static long pipelined(String id) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.info(Driver.POSTGRES), new JsonObject().put("connectionId", id))
        .await(10, TimeUnit.SECONDS).body().getJsonObject("pool").getLong("pipelined", 0L);
  }

  private static long active(String marker) throws Exception {
    return Long.parseLong(one("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%"
        + marker + "%' AND pid <> pg_backend_pid()"));
  }

  private static void awaitActive(String marker) throws Exception {
    long until = System.currentTimeMillis() + 10_000;
    while (active(marker) == 0) {
      if (System.currentTimeMillis() > until) {
        fail(marker + " never ran");
      }
      Thread.sleep(20);
    }
  }

  /**
   * Forty different small reads at once on one connection, counted at a relay: each gets its own
   * row, and riding they take a fraction of the round trips they take one call at a time
   * ({@code pipeline_depth: 1}, one round trip each). Five reads that fail (division by zero) ride
   * among them: each fails alone, its own implicit transaction, and no neighbour notices.
   */
  @Test
  void ridersShareRoundTripsAndEachGetsItsOwnAnswer() throws Exception {
    int calls = 40;
    int[] flights = new int[2];
    for (int depth : new int[] {8, 1}) {
      FlightCountingRelay relay = new FlightCountingRelay(vertx);
      int port = relay.start(TestDatabases.PG_HOST, TestDatabases.PG_PORT);
      try {
        String id = "riders" + depth;
        deploy(config(id, "postgresql://" + TestDatabases.PG_USER + "@127.0.0.1:" + port + "/"
            + TestDatabases.PG_DATABASE, 1, 5_000, depth));
        for (int round = 0; round < 2; round++) {
          for (int i = 1; i <= calls; i++) {
            // the first round prepares each text (a round trip of its own) and looks the table up;
            // the second times it as it runs from now on
            assertEquals("item " + i, cell(ok(q(id, byId(i)))));
          }
        }
        String failing = "SELECT 1 / (id - 7) AS x FROM " + SCHEMA + ".items WHERE id = 7";
        failure(execute(q(id, failing)));
        failure(execute(q(id, failing)));
        int before = relay.flights();
        List<Future<JsonObject>> all = new ArrayList<>();
        List<Future<JsonObject>> failed = new ArrayList<>();
        for (int i = 1; i <= calls; i++) {
          all.add(execute(q(id, byId(i))));
          if (i % 8 == 0) {
            failed.add(execute(q(id, failing))); // riding among the others
          }
        }
        for (int i = 1; i <= calls; i++) {
          assertEquals("item " + i, cell(all.get(i - 1).await(30, TimeUnit.SECONDS)), "call " + i + "'s own row");
        }
        for (Future<JsonObject> f : failed) {
          SqlError e = failure(f);
          assertEquals(ErrorType.QUERY_ERROR, e.type(), e.toJson().encode());
          assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
        }
        flights[depth == 8 ? 0 : 1] = relay.flights() - before;
      } finally {
        undeploy();
        relay.stop();
      }
    }
    System.out.printf("[postgres] round trips for %d concurrent small reads on 1 connection: %d riding,"
        + " %d one call at a time%n", calls, flights[0], flights[1]);
    assertEquals(calls + 5, flights[1], "pipeline_depth 1: one round trip per call");
    assertTrue(flights[0] <= calls / 3, "riders share round trips: " + flights[0]);
  }

  /**
   * The hazard of riding: a text that ran short (here on a small table) turns slow (the table
   * grew). Riding, it holds up the riders behind it until the session's deadline stops it; it
   * must not take them down. Cancelled, it is answered at once and no cancel request goes to the
   * shared backend (it would stop whichever rider runs). Having run long, the text rides no more,
   * so the next cancel does stop it on the server.
   */
  @Test
  void aStoppedRiderLeavesItsNeighboursAloneAndRidesNoMore() throws Exception {
    deploy(config("slow", TestDatabases.pgUrl(TestDatabases.PG_DATABASE), 1, 2_000, 8));
    String timesOut = "SELECT count(*) AS rider_deadline FROM " + SCHEMA + ".r a, " + SCHEMA + ".r b, "
        + SCHEMA + ".r c, " + SCHEMA + ".r d";
    String cancelled = "SELECT count(*) AS rider_cancel FROM " + SCHEMA + ".r a, " + SCHEMA + ".r b, "
        + SCHEMA + ".r c, " + SCHEMA + ".r d";
    for (String sql : List.of(timesOut, cancelled, byId(1), byId(2), byId(3))) {
      ok(q("slow", sql));
      ok(q("slow", sql));
    }
    exec("INSERT INTO " + SCHEMA + ".r SELECT g FROM generate_series(11, 400) g");
    try {
      // the deadline: the session's statement_timeout ends it; the riders behind it are answered
      Future<JsonObject> slow = execute(q("slow", timesOut));
      // sent once it runs, so their own deadlines (250 ms after the server's) start after its
      awaitActive("rider_deadline");
      List<Future<JsonObject>> behind = List.of(execute(q("slow", byId(1))), execute(q("slow", byId(2))));
      SqlError late = failure(slow);
      assertEquals(ErrorType.TIMEOUT, late.type(), late.toJson().encode());
      assertEquals("item 1", cell(behind.get(0).await(10, TimeUnit.SECONDS)));
      assertEquals("item 2", cell(behind.get(1).await(10, TimeUnit.SECONDS)));

      // the cancel: answered now, nothing sent to the backend, the riders behind unharmed. It rides
      // only if its last run was short: a hiccup of a busy machine in the warm-up can make it look
      // slow, so then it is warmed again on the small table (the info shows whether it rides)
      JsonObject req;
      Future<JsonObject> running;
      Future<JsonObject> next;
      for (int attempt = 1; ; attempt++) {
        req = q("slow", cancelled);
        running = execute(req);
        next = execute(q("slow", byId(3)));
        awaitActive("rider_cancel");
        if (pipelined("slow") > 0) {
          break;
        }
        assertTrue(attempt < 4, "the read never rode");
        assertTrue(cancel(req));
        failure(running);
        next.await(10, TimeUnit.SECONDS);
        exec("DELETE FROM " + SCHEMA + ".r WHERE n > 10");
        ok(q("slow", cancelled));
        exec("INSERT INTO " + SCHEMA + ".r SELECT g FROM generate_series(11, 400) g");
      }
      long t0 = System.nanoTime();
      assertTrue(cancel(req));
      SqlError stopped = failure(running);
      long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(ErrorType.CANCELLED, stopped.type());
      assertTrue(answeredMs < 500, "answered at once, not at the deadline: " + answeredMs + " ms");
      Thread.sleep(300); // a cancel request would have landed by now; the deadline is 2 s off
      assertEquals(1, active("rider_cancel"), "no cancel request reached the shared backend");
      assertEquals("item 3", cell(next.await(10, TimeUnit.SECONDS)), "the rider behind it is answered");

      // it ran long: next time it holds the connection alone, and a cancel stops it on the server
      JsonObject again = q("slow", cancelled);
      Future<JsonObject> alone = execute(again);
      awaitActive("rider_cancel");
      assertTrue(cancel(again));
      assertEquals(ErrorType.CANCELLED, failure(alone).type());
      long until = System.currentTimeMillis() + 1_500;
      while (active("rider_cancel") > 0) {
        assertTrue(System.currentTimeMillis() < until, "the cancel request stopped the statement before its deadline");
        Thread.sleep(20);
      }
      System.out.printf("[postgres] a cancelled rider was answered after %d ms; its neighbour was served%n", answeredMs);
    } finally {
      exec("DELETE FROM " + SCHEMA + ".r WHERE n > 10");
    }
  }

  /**
   * A shared connection lost under its riders (the relay in front of the server cut): every rider
   * on it answers connection_error at once, the seat takes no more riders, and once the server is
   * reachable again the next rider gets a fresh connection.
   */
  @Test
  void ridersOnALostConnectionAnswerAtOnceAndTheNextRidesAFreshOne() throws Exception {
    ConnectionConfig direct = config("lost", TestDatabases.pgUrl(TestDatabases.PG_DATABASE), 1, 5_000, 8);
    OutageProxy proxy = OutageProxy.inFrontOf(vertx, direct);
    String slow = "SELECT count(*) AS rider_lost FROM " + SCHEMA + ".r a, " + SCHEMA + ".r b, " + SCHEMA + ".r c, "
        + SCHEMA + ".r d";
    try {
      proxy.up();
      deploy(proxy.route(direct));
      for (String sql : List.of(slow, byId(4), byId(5))) {
        ok(q("lost", sql));
        ok(q("lost", sql));
      }
      exec("INSERT INTO " + SCHEMA + ".r SELECT g FROM generate_series(11, 400) g");
      List<Future<JsonObject>> riders;
      for (int attempt = 1; ; attempt++) {
        JsonObject first = q("lost", slow);
        riders = List.of(execute(first), execute(q("lost", byId(4))), execute(q("lost", byId(5))));
        awaitActive("rider_lost");
        long until = System.currentTimeMillis() + 1_000;
        while (pipelined("lost") < 3 && System.currentTimeMillis() < until) {
          Thread.sleep(20);
        }
        if (pipelined("lost") == 3) {
          break; // all three on the one connection
        }
        // a hiccup of a busy machine in the warm-up made a text look slow: warm again, retry
        assertTrue(attempt < 4, "the three reads never rode together");
        cancel(first);
        for (Future<JsonObject> f : riders) {
          f.otherwiseEmpty().await(10, TimeUnit.SECONDS);
        }
        exec("DELETE FROM " + SCHEMA + ".r WHERE n > 10");
        for (String sql : List.of(slow, byId(4), byId(5))) {
          ok(q("lost", sql));
        }
        exec("INSERT INTO " + SCHEMA + ".r SELECT g FROM generate_series(11, 400) g");
      }
      long t0 = System.nanoTime();
      proxy.down();
      for (Future<JsonObject> f : riders) {
        SqlError e = failure(f);
        assertEquals(ErrorType.CONNECTION_ERROR, e.type(), e.toJson().encode());
      }
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertTrue(ms < 5_000, "answered after " + ms + " ms");
      exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%rider_lost%'"
          + " AND pid <> pg_backend_pid()");
      proxy.up();
      String back = null;
      for (int attempt = 0; attempt < 20 && back == null; attempt++) {
        try {
          back = cell(ok(q("lost", byId(4))));
        } catch (Exception stillDown) {
          Thread.sleep(250);
        }
      }
      assertEquals("item 4", back, "served again on a fresh connection");
    } finally {
      exec("DELETE FROM " + SCHEMA + ".r WHERE n > 10");
      proxy.close();
    }
  }

  /**
   * A read that may change the session never rides: here a view whose function sets a 1 ms
   * statement_timeout for the session (past the guard: a view may run anything), read every round
   * between the riders on a superuser connection. It runs on a connection of its own and is reset
   * behind, so none of the riders around it inherits the setting. The data is unchanged after.
   */
  @Test
  void aReadThatCouldChangeTheSessionNeverRidesAlong() throws Exception {
    String checksum = "SELECT md5(string_agg(id || ':' || name, ',' ORDER BY id)) FROM " + SCHEMA + ".items";
    String before = one(checksum);
    exec("CREATE FUNCTION " + SCHEMA + ".poison() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
        + " PERFORM set_config('statement_timeout', '1', false); RETURN 1; END $$");
    exec("CREATE VIEW " + SCHEMA + ".poisoned AS SELECT " + SCHEMA + ".poison() AS x");
    deploy(config("mixed", TestDatabases.pgUrl(TestDatabases.PG_DATABASE), 2, 5_000, 8));
    String poison = "SELECT x FROM " + SCHEMA + ".poisoned";
    for (int i = 1; i <= 20; i++) {
      ok(q("mixed", byId(i)));
    }
    ok(q("mixed", poison));
    ok(q("mixed", poison));
    for (int round = 0; round < 5; round++) {
      List<Future<JsonObject>> all = new ArrayList<>();
      for (int i = 1; i <= 20; i++) {
        all.add(execute(q("mixed", byId(i))));
        if (i % 5 == 0) {
          all.add(execute(q("mixed", poison)));
        }
      }
      for (Future<JsonObject> f : all) {
        f.await(30, TimeUnit.SECONDS); // a rider with a 1 ms deadline would fail here
      }
    }
    JsonObject after = ok(q("mixed", "SELECT current_setting('statement_timeout') AS t FROM " + SCHEMA
        + ".items LIMIT 1"));
    assertEquals("5s", cell(after), "the connection's own deadline");
    assertEquals(before, one(checksum), "the data is unchanged");
  }
}
