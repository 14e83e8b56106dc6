package dev.sluice.engine.sqlite;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.SqlRequest;
import dev.sluice.sql.TemplateSql;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One SQLite connection. SQLite's driver blocks and cannot be relied on to stop a CPU-bound
 * statement, so no statement runs in the gateway's JVM: reads go to a warm pool of read-only worker
 * processes ({@link SqliteWorkerMain}) that the watchdog kills at the deadline or on cancel; gated
 * writes go to the file's single read-write worker, started on the first write.
 */
final class SqliteConnection implements EngineConnection {

  private final Vertx vertx;
  private final Context context;
  private final ConnectionConfig cfg;
  private final String heap;
  private final SqliteWorkerPool pool;
  private SqliteWorkerPool writer;

  SqliteConnection(Vertx vertx, Context context, ConnectionConfig cfg, String heap) {
    this.vertx = vertx;
    this.context = context;
    this.cfg = cfg;
    this.heap = heap;
    this.pool = new SqliteWorkerPool(vertx, context, cfg, heap);
  }

  @Override
  public Future<Void> start() {
    SqliteEngine.killWorkersOnExit();
    return pool.start();
  }

  @Override
  public Future<Void> close() {
    return writer == null ? pool.close() : Future.join(pool.close(), writer.close()).mapEmpty();
  }

  /** The live read-worker PIDs, read on the executor's context (tests, diagnostics). */
  Future<List<Long>> workerPids() {
    io.vertx.core.Promise<List<Long>> p = io.vertx.core.Promise.promise();
    context.runOnContext(v -> p.complete(pool.pids()));
    return p.future();
  }

  @Override
  public Future<JsonObject> run(Job job) {
    JsonObject line = new JsonObject().put("sql", job.sql()).put("mode", job.mode().wireName())
        .put("maxRows", job.maxRows()).put("floatDigits", job.floatDigits());
    if (job.params() != null) {
      // the worker binds the values positionally; the text is never spliced
      TemplateSql.Positional p = TemplateSql.positional(job.sql());
      JsonArray values = new JsonArray();
      p.names().forEach(n -> values.add(job.params().getValue(n)));
      line.put("sql", p.sql()).put("params", values);
    }
    // a plain read with the connection's deadline may ride a busy worker: a neighbour's kill at
    // its deadline costs it only a second try, never a changed result
    boolean rideable = job.mode() == SqlRequest.Mode.QUERY && job.params() == null
        && job.timeoutMs() == cfg.queryTimeoutMs();
    SqliteJob sj = new SqliteJob(job.queryId(), line, job.timeoutMs(), job.onRows(), job.caller(), rideable);
    long submitted = System.nanoTime();
    return (job.mode() == SqlRequest.Mode.WRITE ? writer() : pool).submit(sj)
        .map(r -> r.put("timings", new JsonObject().put("poolWaitMs", (sj.dispatchedAt - submitted) / 1e6)));
  }

  /** The file's one read-write worker, so that writes to one database never contend. */
  private SqliteWorkerPool writer() {
    if (writer == null) {
      writer = new SqliteWorkerPool(vertx, context, cfg, heap, true);
      writer.start();
    }
    return writer;
  }

  @Override
  public boolean cancel(String queryId) {
    return pool.cancel(queryId) || writer != null && writer.cancel(queryId);
  }

  @Override
  public Future<JsonObject> info() {
    return Future.succeededFuture(pool.info());
  }
}
