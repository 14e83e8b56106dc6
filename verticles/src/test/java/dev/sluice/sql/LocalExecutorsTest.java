package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.sqlite.SqliteEngine;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request handed to this node's executor without a bus message answers like the bus did: on
 * the caller's context, with the executor's errors, a timeout when the executor keeps it past the
 * caller's patience, and over the bus when no executor is deployed here.
 */
class LocalExecutorsTest {

  /** CPU-bound until the worker is killed. */
  private static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
      + " SELECT count(*) FROM c";

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void closeVertx() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }

  private void deploySqlite(long deadlineMs) throws Exception {
    Path db = dir.resolve("local.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE t (i INTEGER)");
      c.createStatement().execute("INSERT INTO t VALUES (1), (2), (3)");
    }
    ConnectionConfig cfg = new ConnectionConfig("lite", Driver.SQLITE, null, db.toString(), null, null, null,
        1, 4, deadlineMs, 100, 1_000);
    deployment = vertx.deployVerticle(new SqlExecutorVerticle(SqliteEngine.withWorkerHeap("64m"), List.of(cfg)))
        .await(60, TimeUnit.SECONDS);
  }

  private String deployment;

  private boolean deployedHere(Driver driver) {
    return LocalExecutors.EXECUTORS.get(vertx, driver) != null;
  }

  private static SqlRequest query(String sql) {
    return SqlRequest.query("lite", sql, null, 100).withRouting("lite", "q-" + System.nanoTime(), null);
  }

  /** Runs {@code call} on {@code ctx}; completes with its outcome and the context its answer came on. */
  private static CompletableFuture<Object[]> on(Context ctx, java.util.function.Supplier<Future<JsonObject>> call) {
    CompletableFuture<Object[]> done = new CompletableFuture<>();
    ctx.runOnContext(v -> call.get().onComplete(ar -> done.complete(
        new Object[] {ar.succeeded() ? ar.result() : ar.cause(), Vertx.currentContext()})));
    return done;
  }

  @Test
  void aHandedOverRequestIsAnsweredOnTheCallersContext() throws Exception {
    deploySqlite(30_000);
    assertTrue(deployedHere(Driver.SQLITE));
    Context caller = vertx.getOrCreateContext();
    Object[] out = on(caller, () -> LocalExecutors.execute(vertx, Driver.SQLITE, query("SELECT sum(i) AS s FROM t"),
        10_000)).get(30, TimeUnit.SECONDS);
    JsonObject result = (JsonObject) out[0];
    assertEquals(6, result.getJsonArray("rows").getJsonArray(0).getInteger(0), result.encode());
    assertSame(caller, out[1], "the answer runs on the caller's context");

    Object[] refused = on(caller, () -> LocalExecutors.execute(vertx, Driver.SQLITE, query("DELETE FROM t"),
        10_000)).get(30, TimeUnit.SECONDS);
    SqlError e = (SqlError) refused[0];
    assertEquals(ErrorType.VALIDATION_FAILED, e.type(), e.getMessage());
    assertSame(caller, refused[1]);

    vertx.undeploy(deployment).await(30, TimeUnit.SECONDS);
    assertFalse(deployedHere(Driver.SQLITE), "a stopped executor is no longer handed requests");
  }

  @Test
  void anExecutorThatKeepsARequestPastTheCallersPatienceFailsItWithATimeout() throws Exception {
    deploySqlite(30_000);
    long t0 = System.nanoTime();
    Object[] out = on(vertx.getOrCreateContext(), () -> LocalExecutors.execute(vertx, Driver.SQLITE, query(RUNAWAY),
        300)).get(30, TimeUnit.SECONDS);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    SqlError e = (SqlError) out[0];
    assertEquals(ErrorType.TIMEOUT, e.type());
    assertEquals(SqlExecutorVerticle.GAVE_UP, e.getMessage());
    // checked once a second: at most one sweep late
    assertTrue(tookMs >= 300 && tookMs < 300 + SqlExecutorVerticle.SWEEP_MS + 2_000, "answered after " + tookMs + " ms");
  }

  @Test
  void withoutAnExecutorOnThisNodeTheRequestGoesOverTheBus() throws Exception {
    SqlRequest.registerCodec(vertx);
    assertFalse(deployedHere(Driver.POSTGRES));
    vertx.eventBus().<Object>localConsumer(SqlBus.execute(Driver.POSTGRES), m -> {
      SqlRequest r = (SqlRequest) m.body();
      if (r.sql().startsWith("SELECT")) {
        m.reply(new JsonObject().put("echo", r.sql()));
      } else {
        new SqlError(ErrorType.VALIDATION_FAILED, "only reads").failReply(m);
      }
    }).completion().await(10, TimeUnit.SECONDS);
    Context caller = vertx.getOrCreateContext();
    Object[] out = on(caller, () -> LocalExecutors.execute(vertx, Driver.POSTGRES, query("SELECT 1"), 5_000))
        .get(10, TimeUnit.SECONDS);
    assertEquals("SELECT 1", ((JsonObject) out[0]).getString("echo"));
    Object[] refused = on(caller, () -> LocalExecutors.execute(vertx, Driver.POSTGRES, query("DELETE FROM x"), 5_000))
        .get(10, TimeUnit.SECONDS);
    assertEquals(ErrorType.VALIDATION_FAILED, ((SqlError) refused[0]).type());
    assertEquals("only reads", ((SqlError) refused[0]).getMessage());
  }
}
