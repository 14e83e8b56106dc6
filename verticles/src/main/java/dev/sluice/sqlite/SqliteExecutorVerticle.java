package dev.sluice.sqlite;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.ExecutorSupport;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.TemplateSql;
import dev.sluice.sql.guard.ReadOnlyGuard;
import dev.sluice.sql.guard.WriteGuard;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Serves {@link SqlBus} for every SQLite connection. SQLite's driver blocks and cannot be relied
 * on to stop a CPU-bound statement, so no query runs in this JVM: each runs in a warm worker
 * process ({@link SqliteWorkerMain}) that the watchdog kills at the deadline or on cancel. Deploy
 * one instance.
 */
public final class SqliteExecutorVerticle extends VerticleBase {

  private final Map<String, ConnectionConfig> configs = new LinkedHashMap<>();
  private final Map<String, SqliteWorkerPool> pools = new LinkedHashMap<>();
  /** The single read-write worker of each database file that has taken a write. */
  private final Map<String, SqliteWorkerPool> writers = new LinkedHashMap<>();
  private final String heap;
  private Thread shutdownHook;

  public SqliteExecutorVerticle(List<ConnectionConfig> connections) {
    this(connections, SqliteWorker.DEFAULT_HEAP);
  }

  /** @param workerHeap the {@code -Xmx} of each worker process, e.g. {@code 256m} */
  public SqliteExecutorVerticle(List<ConnectionConfig> connections, String workerHeap) {
    this.heap = workerHeap;
    for (ConnectionConfig c : connections) {
      if (c.driver() != Driver.SQLITE) {
        throw new IllegalArgumentException(c + " is not a sqlite connection");
      }
      configs.put(c.id(), c);
    }
  }

  @Override
  public Future<?> start() {
    List<Future<?>> steps = new ArrayList<>();
    configs.values().forEach(c -> {
      SqliteWorkerPool pool = new SqliteWorkerPool(vertx, context, c, heap);
      pools.put(c.id(), pool);
      steps.add(pool.start());
    });
    // a gateway that exits without undeploying still takes its workers down
    shutdownHook = new Thread(() -> ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains(SqliteWorkerMain.MARKER))
        .forEach(ProcessHandle::destroyForcibly), "sluice-sqlite-workers-kill");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    steps.add(ExecutorSupport.consume(vertx, SqlBus.execute(Driver.SQLITE), this::execute));
    steps.add(ExecutorSupport.consume(vertx, SqlBus.cancel(Driver.SQLITE), this::cancel));
    steps.add(ExecutorSupport.consume(vertx, SqlBus.info(Driver.SQLITE), this::info));
    return Future.all(steps);
  }

  @Override
  public Future<?> stop() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running already
    }
    List<SqliteWorkerPool> all = new ArrayList<>(pools.values());
    all.addAll(writers.values());
    return Future.join(all.stream().map(SqliteWorkerPool::close).toList());
  }

  /** The live worker PIDs of a connection, read on this verticle's context (tests, diagnostics). */
  Future<List<Long>> workerPids(String connectionId) {
    Promise<List<Long>> p = Promise.promise();
    context.runOnContext(v -> p.complete(pools.get(connectionId).pids()));
    return p.future();
  }

  private Future<JsonObject> execute(JsonObject req) {
    long received = System.nanoTime();
    ConnectionConfig cfg = ExecutorSupport.config(configs, Driver.SQLITE, req.getString("connectionId"));
    String queryId = ExecutorSupport.queryId(req);
    ExecutorSupport.progress(vertx, req, queryId, "validating", null);
    String sql = req.getString("sql");
    if (sql == null || sql.isBlank()) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "sql is required");
    }
    String mode = req.getString("mode", "query");
    if (mode.equals("write")) {
      return write(cfg, queryId, sql, req);
    }
    if (!mode.equals("query") && !mode.equals("explain") && !mode.equals("checksum")) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "mode must be \"query\" or \"explain\", got \"" + mode + "\"");
    }
    JsonObject params = req.getJsonObject("params");
    String checked = params == null ? sql : TemplateSql.forGuard(sql);
    return ReadOnlyGuard.check(vertx, Dialect.SQLITE, checked).compose(verdict -> {
      if (!verdict.allowed()) {
        return Future.failedFuture(verdict.toError());
      }
      ExecutorSupport.progress(vertx, req, queryId, "executing", null);
      long started = System.nanoTime();
      JsonObject line = new JsonObject().put("sql", verdict.sql()).put("mode", mode)
          .put("maxRows", ExecutorSupport.maxRows(req, cfg)).put("floatDigits", req.getInteger("floatDigits", 12));
      if (params != null) {
        // the worker binds the values positionally; the text is never spliced
        TemplateSql.Positional p = TemplateSql.positional(sql);
        JsonArray values = new JsonArray();
        p.names().forEach(n -> values.add(params.getValue(n)));
        line.put("sql", p.sql()).put("params", values);
      }
      SqliteJob job = new SqliteJob(queryId, line, ExecutorSupport.timeoutMs(req, cfg),
          rows -> ExecutorSupport.progress(vertx, req, queryId, "fetching", rows));
      return pools.get(cfg.id()).submit(job).map(r -> r.put("queryId", queryId)
          .put("executionTimeMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
          // timings: the gateway turns them into trace spans (see SqlBus)
          .put("timings", new JsonObject().put("analysisMs", (started - received) / 1e6)
              .put("poolWaitMs", (job.dispatchedAt - started) / 1e6)
              .put("engineMs", (System.nanoTime() - job.dispatchedAt) / 1e6)));
    });
  }

  /**
   * A gated write: checked by the write guard, run by the connection's single read-write worker
   * (started on the first write), under the same deadline and watchdog as reads.
   */
  private Future<JsonObject> write(ConnectionConfig cfg, String queryId, String sql, JsonObject req) {
    String checked = WriteGuard.check(Dialect.SQLITE, sql).sql();
    SqliteWorkerPool writer = writers.computeIfAbsent(cfg.id(), id -> {
      SqliteWorkerPool p = new SqliteWorkerPool(vertx, context, cfg, heap, true);
      p.start();
      return p;
    });
    ExecutorSupport.progress(vertx, req, queryId, "executing", null);
    long started = System.nanoTime();
    JsonObject line = new JsonObject().put("sql", checked).put("mode", "write")
        .put("maxRows", ExecutorSupport.maxRows(req, cfg));
    SqliteJob job = new SqliteJob(queryId, line, ExecutorSupport.timeoutMs(req, cfg), rows -> { });
    return writer.submit(job).map(r -> r.put("queryId", queryId)
        .put("executionTimeMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
  }

  private Future<JsonObject> cancel(JsonObject req) {
    String queryId = req.getString("queryId");
    boolean cancelled = queryId != null && (pools.values().stream().anyMatch(p -> p.cancel(queryId))
        || writers.values().stream().anyMatch(p -> p.cancel(queryId)));
    return Future.succeededFuture(new JsonObject().put("queryId", queryId).put("cancelled", cancelled));
  }

  private Future<JsonObject> info(JsonObject req) {
    ConnectionConfig cfg = ExecutorSupport.config(configs, Driver.SQLITE, req.getString("connectionId"));
    return Future.succeededFuture(pools.get(cfg.id()).info());
  }
}
