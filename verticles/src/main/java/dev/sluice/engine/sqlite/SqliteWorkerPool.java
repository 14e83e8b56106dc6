package dev.sluice.engine.sqlite;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Warm worker processes for one SQLite connection: {@code pool_size} workers, one job each, a
 * bounded wait queue, and a replacement for every worker that dies or is killed. Runs on its
 * verticle's context; not thread-safe.
 */
final class SqliteWorkerPool {

  /** Suggested client back-off when the wait queue is full. */
  static final long BUSY_RETRY_AFTER_MS = 250;
  /** Delay before retrying to start workers after a failed start (missing file, bad DB). */
  static final long RESPAWN_BACKOFF_MS = 2_000;

  private final Vertx vertx;
  private final Context ctx;
  private final ConnectionConfig cfg;
  private final String heap;
  private final SqliteWatchdog watchdog;
  private final Set<SqliteWorker> workers = new LinkedHashSet<>();
  private final ArrayDeque<SqliteWorker> idle = new ArrayDeque<>();
  private final ArrayDeque<SqliteJob> waiting = new ArrayDeque<>();
  private final Map<SqliteWorker, SqliteJob> running = new HashMap<>();
  private final Map<String, SqliteJob> byQueryId = new HashMap<>();
  private int starting;
  private boolean closed;
  private String lastError;
  private String serverVersion;

  private final boolean writer;

  SqliteWorkerPool(Vertx vertx, Context ctx, ConnectionConfig cfg, String heap) {
    this(vertx, ctx, cfg, heap, false);
  }

  /** @param writer the single read-write worker of a database file (its pool size is 1) */
  SqliteWorkerPool(Vertx vertx, Context ctx, ConnectionConfig cfg, String heap, boolean writer) {
    this.writer = writer;
    this.vertx = vertx;
    this.ctx = ctx;
    this.cfg = cfg;
    this.heap = heap;
    this.watchdog = new SqliteWatchdog(vertx, this::terminate);
  }

  /** Workers kept: the connection's pool size, or one for the writer (SQLite has one writer per file). */
  private int size() {
    return writer ? 1 : cfg.poolSize();
  }

  /** Starts the warm workers; never fails (a broken database shows as status "down"). */
  Future<Void> start() {
    List<Future<?>> all = new ArrayList<>();
    for (int i = 0; i < size(); i++) {
      all.add(spawn());
    }
    return Future.join(all).otherwiseEmpty().mapEmpty();
  }

  private Future<SqliteWorker> spawn() {
    starting++;
    return SqliteWorker.start(vertx, ctx, Path.of(cfg.path()), heap, writer)
        .onComplete(ar -> starting--)
        .onSuccess(w -> {
          if (closed) {
            w.kill();
            return;
          }
          lastError = null;
          serverVersion = w.serverVersion();
          workers.add(w);
          w.onExit().onComplete(code -> died(w, code.result()));
          release(w);
        })
        .onFailure(err -> {
          lastError = err.getMessage();
          if (!closed) {
            vertx.setTimer(RESPAWN_BACKOFF_MS, t -> {
              if (!closed && workers.size() + starting < size()) {
                spawn();
              }
            });
          }
          failWaitingIfNoWorkers();
        });
  }

  /** Queues or runs a job; fails at once with busy when the wait queue is full. */
  Future<JsonObject> submit(SqliteJob job) {
    if (workers.isEmpty() && starting == 0 && lastError != null) {
      return Future.failedFuture(down());
    }
    SqliteWorker w = idle.pollFirst();
    if (w == null && waiting.size() >= cfg.maxWaitQueue()) {
      return Future.failedFuture(new SqlError(ErrorType.BUSY, "all " + cfg.poolSize()
          + " SQLite workers of '" + cfg.id() + "' are busy and " + waiting.size() + " calls are waiting")
          .with("retryAfterMs", BUSY_RETRY_AFTER_MS));
    }
    byQueryId.put(job.queryId, job);
    watchdog.arm(job);
    if (w != null) {
      dispatch(w, job);
    } else {
      waiting.addLast(job);
    }
    return job.result.future().onComplete(ar -> {
      watchdog.disarm(job);
      byQueryId.remove(job.queryId);
    });
  }

  boolean cancel(String queryId) {
    SqliteJob job = byQueryId.get(queryId);
    if (job == null) {
      return false;
    }
    watchdog.cancel(job);
    return true;
  }

  private void dispatch(SqliteWorker w, SqliteJob job) {
    job.worker = w;
    job.dispatchedAt = System.nanoTime();
    running.put(w, job);
    w.onLine(line -> answer(w, job, line));
    w.send(job.line);
  }

  private void answer(SqliteWorker w, SqliteJob job, JsonObject line) {
    if (!job.queryId.equals(line.getString("id")) || job.done()) {
      return;
    }
    switch (line.getString("type", "")) {
      case "progress" -> job.onRows.accept(line.getInteger("rows", 0));
      case "result" -> {
        running.remove(w);
        line.remove("id");
        line.remove("type");
        job.result.tryComplete(line);
        release(w);
      }
      case "error" -> {
        running.remove(w);
        JsonObject details = line.copy();
        for (String k : List.of("id", "type", "error_type", "message", WorkerProtocol.RETIRING)) {
          details.remove(k);
        }
        job.result.tryFail(new SqlError(ErrorType.fromWire(line.getString("error_type", "query_error")),
            line.getString("message", "SQLite error"), details));
        if (line.getBoolean(WorkerProtocol.RETIRING, false)) {
          // It is exiting on its own; its exit may not be seen yet, so no job may go to it. Killing
          // it makes the exit (and so the replacement) prompt rather than wait on the JVM's teardown.
          w.kill();
        } else {
          release(w);
        }
      }
      default -> { }
    }
  }

  private void release(SqliteWorker w) {
    if (!w.alive() || closed) {
      return;
    }
    SqliteJob next;
    while ((next = waiting.pollFirst()) != null && next.done()) {
      // skip jobs whose deadline or cancellation came while they waited
    }
    if (next != null) {
      dispatch(w, next);
    } else {
      idle.addLast(w);
    }
  }

  /** Watchdog decision: kill the job's worker (if it has one) and fail the job now. */
  private void terminate(SqliteJob job, SqlError error) {
    waiting.remove(job);
    if (job.worker != null && running.get(job.worker) == job) {
      running.remove(job.worker);
      job.worker.kill();
    }
    job.result.tryFail(error.with("queryId", job.queryId));
  }

  private void died(SqliteWorker w, Integer exitCode) {
    workers.remove(w);
    idle.remove(w);
    SqliteJob job = running.remove(w);
    if (job != null && !job.done()) {
      job.result.tryFail(new SqlError(ErrorType.CONNECTION_ERROR, "SQLite worker process " + w.pid()
          + " died (exit " + exitCode + ") while running the query; a new worker is starting, retry the call"));
    }
    if (!closed && workers.size() + starting < size()) {
      spawn();
    }
  }

  private void failWaitingIfNoWorkers() {
    if (workers.isEmpty() && starting == 0) {
      SqliteJob j;
      while ((j = waiting.pollFirst()) != null) {
        j.result.tryFail(down());
      }
    }
  }

  private SqlError down() {
    return new SqlError(ErrorType.CONNECTION_ERROR, "SQLite connection '" + cfg.id() + "' is unavailable: "
        + lastError);
  }

  JsonObject info() {
    JsonObject j = new JsonObject().put("connectionId", cfg.id())
        .put("status", !workers.isEmpty() ? "up" : starting > 0 && lastError == null ? "starting" : "down")
        .put("serverVersion", serverVersion).put("flavour", "sqlite").put("readOnly", true)
        .put("path", cfg.path())
        .put("pool", new JsonObject().put("size", workers.size()).put("inUse", running.size())
            .put("waiting", waiting.size()));
    if (workers.isEmpty() && lastError != null) {
      j.put("error", lastError);
    }
    return j;
  }

  List<Long> pids() {
    return workers.stream().map(SqliteWorker::pid).toList();
  }

  /** Kills every worker and waits for them to exit. */
  Future<Void> close() {
    closed = true;
    List<Future<Integer>> exits = new ArrayList<>();
    for (SqliteWorker w : new ArrayList<>(workers)) {
      w.kill();
      exits.add(w.onExit());
    }
    waiting.forEach(j -> j.result.tryFail(new SqlError(ErrorType.CONNECTION_ERROR, "the gateway is stopping")));
    return Future.join(exits).mapEmpty();
  }
}
