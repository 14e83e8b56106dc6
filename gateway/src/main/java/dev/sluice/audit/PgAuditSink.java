package dev.sluice.audit;

import dev.sluice.state.SerializedDdl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional PostgreSQL copy of the audit trail: records are buffered (bounded; beyond it they
 * are dropped and counted, the files stay complete) and inserted in batches through the Vert.x PG
 * client every flush interval. The table is created if missing; {@code record} holds the whole
 * JSON line, the other columns are for indexes and queries.
 */
final class PgAuditSink {

  private static final Logger LOG = LoggerFactory.getLogger(PgAuditSink.class);
  static final int MAX_BATCH = 500;

  private final Vertx vertx;
  private final Pool pool;
  private final String table;
  private final BlockingQueue<JsonObject> buffer;
  private final long flushMs;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private long timer = -1;
  private volatile boolean flushing;

  PgAuditSink(Vertx vertx, String url, String table, int bufferSize, long flushMs) {
    this.vertx = vertx;
    this.table = table;
    this.flushMs = flushMs;
    this.buffer = new ArrayBlockingQueue<>(bufferSize);
    this.pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(2)).connectingTo(dev.sluice.sql.tls.DatabaseTls.postgres(url))
        .using(vertx).build();
  }

  Future<Void> start() {
    return createTable()
        .onSuccess(v -> timer = vertx.setPeriodic(flushMs, id -> flush()));
  }

  private Future<Void> createTable() {
    // nodes of a cluster start together; SerializedDdl keeps their CREATEs from colliding
    return SerializedDdl.run(pool, table, List.of("CREATE TABLE IF NOT EXISTS " + table
        + " (id bigserial PRIMARY KEY, time timestamptz NOT NULL, node text, principal text, session_id text,"
        + " type text NOT NULL, tool text, outcome text, record jsonb NOT NULL)"));
  }

  void offer(JsonObject rec) {
    if (!buffer.offer(rec)) {
      dropped.incrementAndGet();
    }
  }

  long written() {
    return written.get();
  }

  long dropped() {
    return dropped.get();
  }

  /** One batch insert; a batch that fails is dropped (counted) so the buffer keeps moving. */
  private Future<Void> flush() {
    if (flushing || buffer.isEmpty()) {
      return Future.succeededFuture();
    }
    flushing = true;
    List<JsonObject> batch = new ArrayList<>();
    buffer.drainTo(batch, MAX_BATCH);
    List<Tuple> rows = new ArrayList<>(batch.size());
    for (JsonObject r : batch) {
      rows.add(Tuple.of(OffsetDateTime.parse(r.getString("time")), r.getString("node"), r.getString("principal"),
          r.getString("sessionId"), r.getString("type"), r.getString("tool"), r.getString("outcome"), r));
    }
    return pool.preparedQuery("INSERT INTO " + table + " (time, node, principal, session_id, type, tool, outcome,"
            + " record) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)").executeBatch(rows)
        .onSuccess(rs -> written.addAndGet(batch.size()))
        .onFailure(err -> {
          dropped.addAndGet(batch.size());
          LOG.error("audit batch of {} records not inserted into {}: {}", batch.size(), table, err.getMessage());
        })
        .<Void>mapEmpty().recover(err -> Future.succeededFuture())
        .onComplete(ar -> flushing = false);
  }

  /** Inserts what is buffered, then closes the pool. Blocking: call off the event loop. */
  void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    try {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!buffer.isEmpty() && System.nanoTime() < until) {
        while (flushing && System.nanoTime() < until) {
          Thread.sleep(10);
        }
        flush().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      while (flushing && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      pool.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("closing the audit PostgreSQL sink: {}", e.toString());
    }
  }
}
