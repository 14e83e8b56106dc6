package dev.sluice.engine.sqlite;

import dev.sluice.bus.JsonFields;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import dev.sluice.sql.pool.FairQueue;
import dev.sluice.sql.pool.QueueMeters;
import dev.sluice.sql.pool.RecentReadTimes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Warm worker processes for one SQLite connection, one job each, or several small reads ("riders",
 * answered in order) when all are busy: two start with the pool, another
 * whenever a call has to wait, up to {@code pool_size}; once started a worker stays, and one that
 * dies or is killed is replaced. A bounded wait queue in front. Runs on its verticle's context;
 * not thread-safe.
 *
 * <p>Each worker is a JVM (about a second of CPU to start, 90 MB resident), so a connection that
 * never sees more than one call at a time keeps two, not {@code pool_size}.
 */
final class SqliteWorkerPool {

  /**
   * A busy worker takes another rider only while the lines it has not answered are at most this
   * much: with a rider's text at most 4 KB (escaped, under 26 KB) the pipe's 64 KB never fills, so
   * sending never blocks the event loop.
   */
  static final int RIDER_BYTES = 16 * 1024;

  /** Delay before retrying to start workers after a failed start (missing file, bad DB). */
  static final long RESPAWN_BACKOFF_MS = 2_000;

  private final Vertx vertx;
  private final Context ctx;
  private final ConnectionConfig cfg;
  private final String heap;
  private final SqliteWatchdog watchdog;
  private final Set<SqliteWorker> workers = new LinkedHashSet<>();
  private final ArrayDeque<SqliteWorker> idle = new ArrayDeque<>();
  /** Jobs waiting for a worker, in fair (or FIFO) order; bounded by max_wait_queue. */
  private final FairQueue<SqliteJob> waiting;
  /** Each busy worker's jobs, in the order it answers them (more than one when reads ride). */
  private final Map<SqliteWorker, ArrayDeque<SqliteJob>> running = new HashMap<>();
  private final Map<String, SqliteJob> byQueryId = new HashMap<>();
  private int starting;
  /**
   * How many workers the pool keeps: at first two, so that one killed at a deadline or by a cancel
   * leaves one serving while its replacement starts (seconds on a loaded machine, which the next
   * call's deadline would otherwise spend waiting), or one per slot reserved for short calls plus
   * one if that is more; raised when a call waits; at most the size.
   */
  private int warm;
  private boolean closed;
  private String lastError;
  private String serverVersion;
  /** Workers replaced after they died or were killed (deadline, cancel, out of memory). */
  private long restarts;
  /** How long each recent read text took, for which reads may ride a busy worker. */
  private final RecentReadTimes recentReads = new RecentReadTimes();
  /** Riders sent back to the queue because the worker they waited on was killed for another call. */
  private long requeued;

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
    this.waiting = new FairQueue<>(cfg.id(), cfg.queue(), cfg.maxWaitQueue(), size(), QueueMeters.of(vertx));
    this.warm = writer ? 1 : Math.min(size(), Math.max(2, 1 + cfg.queue().shortReserve()));
  }

  /** Workers kept: the connection's pool size, or one for the writer (SQLite has one writer per file). */
  private int size() {
    return writer ? 1 : cfg.poolSize();
  }

  /** Starts the first workers; never fails (a broken database shows as status "down"). */
  Future<Void> start() {
    List<Future<?>> all = new ArrayList<>();
    for (int i = 0; i < warm; i++) {
      all.add(spawn());
    }
    return Future.join(all).otherwiseEmpty().mapEmpty();
  }

  /** A call is waiting: one more worker for it, unless enough are starting or the pool is full. */
  private void grow() {
    if (!closed && idle.isEmpty() && waiting.size() > starting && workers.size() + starting < size()) {
      warm = Math.max(warm, workers.size() + starting + 1);
      spawn();
    }
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
              if (!closed && workers.size() + starting < warm) {
                spawn();
              }
            });
          }
          failWaitingIfNoWorkers();
        });
  }

  /** Queues or runs a job; fails at once with busy when the wait queue (or the caller's share) is full. */
  Future<JsonObject> submit(SqliteJob job) {
    if (workers.isEmpty() && starting == 0 && lastError != null) {
      return Future.failedFuture(down());
    }
    SqlError busy = waiting.refusal(job.caller, "SQLite workers", !idle.isEmpty());
    if (busy != null) {
      return Future.failedFuture(busy);
    }
    job.rides = !writer && job.rideable && recentReads.atMost(job.sql, cfg.queue().rideMaxMs());
    byQueryId.put(job.queryId, job);
    watchdog.arm(job);
    job.entry = waiting.add(job, job.caller);
    pump();
    grow();
    return job.result.future().onComplete(ar -> {
      watchdog.disarm(job);
      byQueryId.remove(job.queryId);
    });
  }

  /**
   * Hands idle workers the jobs the queue chooses; when none is idle, a rider may join the busy
   * worker with the fewest riders (spread before stacking), up to {@code queue.pipeline_depth}.
   * Order stays strict: while the next job in order needs a worker alone, nothing passes it.
   */
  private void pump() {
    while (true) {
      SqliteWorker w = idle.peekFirst();
      boolean shared = w == null;
      if (shared && (w = lightestRiding()) == null) {
        return;
      }
      FairQueue.Entry<SqliteJob> next = shared ? waiting.next(job -> job.rides || job.done()) : waiting.next();
      if (next == null) {
        return;
      }
      SqliteJob job = next.item();
      if (job.done()) {
        // its deadline or cancellation came while it waited: it held no worker
        waiting.finished(next, 0);
        continue;
      }
      if (!shared) {
        idle.pollFirst();
      }
      dispatch(w, job);
    }
  }

  /** The busy worker serving only riders with the fewest of them, if it may take one more. */
  private SqliteWorker lightestRiding() {
    int depth = writer ? 1 : cfg.queue().pipelineDepth();
    SqliteWorker best = null;
    int least = depth;
    for (Map.Entry<SqliteWorker, ArrayDeque<SqliteJob>> e : running.entrySet()) {
      ArrayDeque<SqliteJob> jobs = e.getValue();
      if (jobs.size() < least && jobs.peekFirst().rides && e.getKey().unansweredBytes <= RIDER_BYTES) {
        best = e.getKey();
        least = jobs.size();
      }
    }
    return best;
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
    w.countJob();
    running.computeIfAbsent(w, k -> new ArrayDeque<>()).addLast(job);
    w.onLine(line -> answer(w, line));
    job.sentBytes = w.send(job.line);
    w.unansweredBytes += job.sentBytes;
  }

  /** A worker answers its jobs in the order they were sent: a line is about the first of them. */
  private void answer(SqliteWorker w, JsonObject line) {
    ArrayDeque<SqliteJob> jobs = running.get(w);
    SqliteJob job = jobs == null ? null : jobs.peekFirst();
    if (job == null || !job.queryId.equals(line.getString("id"))) {
      return;
    }
    String type = line.getString("type", "");
    if ("progress".equals(type)) {
      if (!job.done()) {
        job.onRows.accept(line.getInteger("rows", 0));
      }
      return;
    }
    if (!"result".equals(type) && !"error".equals(type)) {
      return;
    }
    jobs.pollFirst();
    ran(w, job, false);
    if ("result".equals(type)) {
      line.remove("id");
      line.remove("type");
      job.result.tryComplete(line);
    } else {
      JsonObject details = JsonFields.copy(line);
      for (String k : List.of("id", "type", "error_type", "message", WorkerProtocol.RETIRING)) {
        details.remove(k);
      }
      job.result.tryFail(new SqlError(ErrorType.fromWire(line.getString("error_type", "query_error")),
          line.getString("message", "SQLite error"), details));
      if (line.getBoolean(WorkerProtocol.RETIRING, false)) {
        // It is exiting on its own; its exit may not be seen yet, so no job may go to it. Killing
        // it makes the exit (and so the replacement) prompt rather than wait on the JVM's teardown.
        retire(w);
        return;
      }
    }
    if (jobs.isEmpty()) {
      running.remove(w);
      release(w);
      return;
    }
    if (jobs.peekFirst().done()) {
      watchdog.orphaned(jobs.peekFirst()); // answered while it waited here; the worker starts it now
    }
    pump();
  }

  /**
   * A job left its worker: its engine time runs from when the worker could start it (its dispatch,
   * or the answer before it on the same worker), for the queue's cost history and the riders' record.
   * A job {@code cutShort} (its worker killed under it) counts as slow ({@link RecentReadTimes#record}).
   */
  private void ran(SqliteWorker w, SqliteJob job, boolean cutShort) {
    long now = System.nanoTime();
    double ms = (now - Math.max(job.dispatchedAt, w.answeredAt)) / 1e6;
    w.answeredAt = now;
    w.unansweredBytes -= job.sentBytes;
    waiting.finished(job.entry, ms);
    if (job.rideable) {
      recentReads.record(job.sql, ms, cutShort);
    }
  }

  /**
   * Kills a worker that must not take or finish more jobs; the riders still waiting on it had not
   * started (a worker runs one job at a time, in order), so they go back to the queue.
   */
  private void retire(SqliteWorker w) {
    ArrayDeque<SqliteJob> jobs = running.remove(w);
    w.kill();
    if (jobs != null) {
      jobs.forEach(this::requeue);
    }
    pump();
  }

  /** A rider whose worker was killed for another call: queued again, with its own deadline still running. */
  private void requeue(SqliteJob job) {
    waiting.stopped(job.entry);
    if (job.done()) {
      return; // answered already (cancelled or out of time while it waited on the worker)
    }
    if (closed) {
      job.result.tryFail(new SqlError(ErrorType.CONNECTION_ERROR, "the gateway is stopping"));
      return;
    }
    job.worker = null;
    requeued++;
    job.entry = waiting.add(job, job.caller);
  }

  private void release(SqliteWorker w) {
    if (!w.alive() || closed) {
      return;
    }
    idle.addLast(w);
    pump();
  }

  /**
   * Watchdog decision, the job's deadline or cancel: the worker dies if it is running the job. A
   * rider still waiting behind another job on its worker has not started: it is answered now, and
   * the worker, which cannot take it back, runs it on its turn (a small read) with its answer
   * ignored, and dies if it runs past a deadline's length ({@link SqliteWatchdog#orphaned}).
   */
  private void terminate(SqliteJob job, SqlError error) {
    waiting.remove(job.entry);
    ArrayDeque<SqliteJob> jobs = job.worker == null ? null : running.get(job.worker);
    if (jobs != null && jobs.peekFirst() == job) {
      jobs.pollFirst();
      // the queue learns that much engine time at least; the text no longer rides
      ran(job.worker, job, true);
      retire(job.worker);
    }
    job.result.tryFail(error.with("queryId", job.queryId));
  }

  private void died(SqliteWorker w, Integer exitCode) {
    workers.remove(w);
    idle.remove(w);
    ArrayDeque<SqliteJob> jobs = running.remove(w);
    SqliteJob job = jobs == null ? null : jobs.pollFirst();
    if (job != null && !job.done()) {
      waiting.finished(job.entry, (System.nanoTime() - job.dispatchedAt) / 1e6);
      job.result.tryFail(new SqlError(ErrorType.CONNECTION_ERROR, "SQLite worker process " + w.pid()
          + " died (exit " + exitCode + ") while running the query; a new worker is starting, retry the call"));
    }
    if (jobs != null && !jobs.isEmpty()) {
      // the riders behind it never started
      jobs.forEach(this::requeue);
      pump();
    }
    if (!closed && workers.size() + starting < warm) {
      restarts++;
      spawn();
    }
  }

  private void failWaitingIfNoWorkers() {
    if (workers.isEmpty() && starting == 0) {
      FairQueue.Entry<SqliteJob> e;
      while ((e = waiting.next()) != null) {
        waiting.finished(e, 0);
        e.item().result.tryFail(down());
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
        .put("pool", new JsonObject().put("size", workers.size()).put("max", size())
            .put("inUse", running.size()).put("waiting", waiting.size()).put("pipelined", pipelined())
            .put("requeued", requeued))
        .put("workers", workerInfo()).put("restarts", restarts);
    if (workers.isEmpty() && lastError != null) {
      j.put("error", lastError);
    }
    return j;
  }

  /** Riders on workers now (as PostgreSQL's {@code pool.pipelined}: the calls that may share one). */
  private int pipelined() {
    int n = 0;
    for (ArrayDeque<SqliteJob> jobs : running.values()) {
      for (SqliteJob job : jobs) {
        n += job.rides ? 1 : 0;
      }
    }
    return n;
  }

  /** Each worker process as the operator's console shows it. */
  private JsonArray workerInfo() {
    JsonArray a = new JsonArray();
    for (SqliteWorker w : workers) {
      ArrayDeque<SqliteJob> jobs = running.get(w);
      a.add(new JsonObject().put("pid", w.pid()).put("jobs", w.jobs()).put("busy", jobs != null)
          .put("inFlight", jobs == null ? 0 : jobs.size()));
    }
    return a;
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
    FairQueue.Entry<SqliteJob> e;
    while ((e = waiting.next()) != null) {
      waiting.finished(e, 0);
      e.item().result.tryFail(new SqlError(ErrorType.CONNECTION_ERROR, "the gateway is stopping"));
    }
    return Future.join(exits).mapEmpty();
  }
}
