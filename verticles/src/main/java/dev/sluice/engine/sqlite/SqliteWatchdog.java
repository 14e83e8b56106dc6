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

  void cancel(SqliteJob job) {
    if (!job.done()) {
      terminate.accept(job, new SqlError(ErrorType.CANCELLED, "query " + job.queryId + " was cancelled"));
    }
  }

  void disarm(SqliteJob job) {
    vertx.cancelTimer(job.deadlineTimer);
  }
}
