package dev.sluice.sqlite;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.ExecutorSupport;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.guard.ReadOnlyGuard;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
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
    return Future.join(pools.values().stream().map(SqliteWorkerPool::close).toList());
  }

  /** The live worker PIDs of a connection, read on this verticle's context (tests, diagnostics). */
  Future<List<Long>> workerPids(String connectionId) {
    Promise<List<Long>> p = Promise.promise();
    context.runOnContext(v -> p.complete(pools.get(connectionId).pids()));
    return p.future();
  }

  private Future<JsonObject> execute(JsonObject req) {
    ConnectionConfig cfg = ExecutorSupport.config(configs, Driver.SQLITE, req.getString("connectionId"));
    String queryId = ExecutorSupport.queryId(req);
    ExecutorSupport.progress(vertx, req, queryId, "validating", null);
    String sql = req.getString("sql");
    if (sql == null || sql.isBlank()) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "sql is required");
    }
    String mode = req.getString("mode", "query");
    if (!mode.equals("query") && !mode.equals("explain")) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "mode must be \"query\" or \"explain\", got \"" + mode + "\"");
    }
    return ReadOnlyGuard.check(vertx, Dialect.SQLITE, sql).compose(verdict -> {
      if (!verdict.allowed()) {
        return Future.failedFuture(verdict.toError());
      }
      ExecutorSupport.progress(vertx, req, queryId, "executing", null);
      long started = System.nanoTime();
      JsonObject line = new JsonObject().put("sql", verdict.sql()).put("mode", mode)
          .put("maxRows", ExecutorSupport.maxRows(req, cfg));
      SqliteJob job = new SqliteJob(queryId, line, ExecutorSupport.timeoutMs(req, cfg),
          rows -> ExecutorSupport.progress(vertx, req, queryId, "fetching", rows));
      return pools.get(cfg.id()).submit(job).map(r -> r.put("queryId", queryId)
          .put("executionTimeMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
    });
  }

  private Future<JsonObject> cancel(JsonObject req) {
    String queryId = req.getString("queryId");
    boolean cancelled = queryId != null && pools.values().stream().anyMatch(p -> p.cancel(queryId));
    return Future.succeededFuture(new JsonObject().put("queryId", queryId).put("cancelled", cancelled));
  }

  private Future<JsonObject> info(JsonObject req) {
    ConnectionConfig cfg = ExecutorSupport.config(configs, Driver.SQLITE, req.getString("connectionId"));
    return Future.succeededFuture(pools.get(cfg.id()).info());
  }
}
