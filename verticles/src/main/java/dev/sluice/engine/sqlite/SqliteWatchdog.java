package dev.sluice.engine.sqlite;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import io.vertx.core.Vertx;
import java.util.function.BiConsumer;

/**
 * The one place that decides a SQLite worker must die: at a job's deadline (the call fails with
 * {@code query exceeded Ns} at once, without waiting for the process) or when the call is
 * cancelled. The pool carries out the kill and starts a replacement.
 */
final class SqliteWatchdog {

  private final Vertx vertx;
  private final BiConsumer<SqliteJob, SqlError> terminate;

  /** @param terminate kills the job's worker (if it has one) and fails the job with the error */
  SqliteWatchdog(Vertx vertx, BiConsumer<SqliteJob, SqlError> terminate) {
    this.vertx = vertx;
    this.terminate = terminate;
  }

  /** Starts the job's clock; time spent waiting for a worker counts, as on the other engines. */
  void arm(SqliteJob job) {
    job.deadlineTimer = vertx.setTimer(job.timeoutMs, t -> {
      if (!job.done()) {
        terminate.accept(job, SqlBus.deadlineError(job.timeoutMs));
      }
    });
  }

  /**
   * A job already answered (cancelled, or out of time while it waited behind another on its
   * worker) that its worker starts now, since a line sent cannot be taken back. It rode, so it was
   * quick the last time; if it is still running after its deadline's length, the worker dies as
   * for any job at its deadline (the pool's terminate finds it still at the head there). Without
   * this a read that had turned into a runaway ran on for nobody, holding its worker, and every
   * rider sent there after it waited out its own deadline.
   */
  void orphaned(SqliteJob job) {
    vertx.setTimer(job.timeoutMs, t -> terminate.accept(job, SqlBus.deadlineError(job.timeoutMs)));
  }

  void cancel(SqliteJob job) {
    if (!job.done()) {
      terminate.accept(job, new SqlError(ErrorType.CANCELLED, "query " + job.queryId + " was cancelled"));
    }
  }

  void disarm(SqliteJob job) {
    vertx.cancelTimer(job.deadlineTimer);
  }
}
