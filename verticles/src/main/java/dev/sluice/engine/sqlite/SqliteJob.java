package dev.sluice.engine.sqlite;

import dev.sluice.sql.pool.Caller;
import dev.sluice.sql.pool.FairQueue;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.function.IntConsumer;

/** One query on its way through a pool: queued, then running on one worker, then done. */
final class SqliteJob {

  final String queryId;
  final JsonObject line;
  final long timeoutMs;
  final IntConsumer onRows;
  final Caller caller;
  /** Its place in the pool's wait queue; also what the queue learns the statement's cost from. */
  FairQueue.Entry<SqliteJob> entry;
  final Promise<JsonObject> result = Promise.promise();
  SqliteWorker worker;
  long deadlineTimer = -1;
  /** The size of its line as sent to its worker. */
  int sentBytes;
  /** System.nanoTime() when a worker took the job: the end of its wait for the pool. */
  long dispatchedAt;

  /** The statement's text as the worker runs it, for the pool's record of how long reads take. */
  final String sql;
  /**
   * A plain read with the connection's own deadline: it may share a busy worker if its text was
   * quick the last time (the pool decides, {@link #rides}).
   */
  final boolean rideable;
  /** Decided once when it is queued: may be sent to a worker that is still busy with other riders. */
  boolean rides;

  SqliteJob(String queryId, JsonObject line, long timeoutMs, IntConsumer onRows, Caller caller,
      boolean rideable) {
    this.sql = line.getString("sql", "");
    this.rideable = rideable;
    this.caller = caller;
    this.queryId = queryId;
    this.line = line.put("id", queryId);
    this.timeoutMs = timeoutMs;
    this.onRows = onRows;
  }

  boolean done() {
    return result.future().isComplete();
  }
}
