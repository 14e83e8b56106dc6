package dev.sluice.sql.pool;

import dev.sluice.bus.JsonFields;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.RowChecksum;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.PreparedStatement;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.templates.SqlTemplate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs guarded statements on a network engine's pool: lease a read-only deadline-bound session,
 * stream at most {@code maxRows} rows through a cursor (or read a metadata statement whole), roll
 * back and reset the session. The deadline is enforced twice: by the engine and by a gateway timer
 * that cancels the backend; both end in the same {@link SqlBus#deadlineError}, delivered once.
 * A small session-neutral read that ran short last time may instead ride a connection shared with
 * others ({@link PoolGate}); no cancel request is sent for a rider, whose backend serves its
 * neighbours too. Every statement travels on a path that cannot carry a second one (see
 * {@link EngineAdapter#single}). Runs on the executor verticle's context.
 */
public final class PooledExecution implements EngineConnection {

  /** The gateway timer fires this long after the engine's own deadline should have. */
  public static final long DEADLINE_MARGIN_MS = 250;

  private final Vertx vertx;
  private final EngineAdapter engine;
  private final Map<String, InFlightQuery> inFlight = new HashMap<>();
  /** Admits calls to the driver's pool in fair (or FIFO) order; the driver's own queue stays short. */
  private final PoolGate gate;

  public PooledExecution(Vertx vertx, EngineAdapter engine) {
    this.vertx = vertx;
    this.engine = engine;
    this.gate = new PoolGate(engine.config(), QueueMeters.of(vertx));
  }

  @Override
  public Future<Void> start() {
    return engine.start();
  }

  @Override
  public Future<Void> close() {
    return engine.close();
  }

  @Override
  public Future<List<String>> knownNames(boolean columns, String qualifier) {
    return engine.knownNames(columns, qualifier);
  }

  @Override
  public Future<JsonObject> run(Job job) {
    InFlightQuery q = new InFlightQuery(job.queryId(), engine);
    inFlight.put(job.queryId(), q);
    long started = System.nanoTime();
    long timeoutMs = job.timeoutMs();
    boolean write = job.mode() == SqlRequest.Mode.WRITE;
    boolean oneTrip = oneTrip(job);
    // with the connection's own deadline only: a rider's lease is bare, its deadline the session's
    boolean rides = oneTrip && timeoutMs == engine.config().queryTimeoutMs() && gate.mayRide(job.sql())
        && engine.sharesConnection(job.guarded());
    // The gateway's own deadline: covers the pool queue and an engine that ignores its timeout.
    long timer = vertx.setTimer(timeoutMs + DEADLINE_MARGIN_MS, id -> stop(q, InFlightQuery.Stop.DEADLINE,
        SqlBus.deadlineError(timeoutMs)));
    PoolGate.Ticket ticket = gate.enter(job.caller(), rides);
    q.ticket = ticket;
    gate.granted(ticket)
        .compose(t -> q.stop != null ? Future.failedFuture(stopError(q, timeoutMs)) : lease(t, job, oneTrip))
        .compose(lease -> {
          if (q.stop != null) {
            return giveBack(lease).compose(v -> Future.failedFuture(stopError(q, timeoutMs)));
          }
          q.lease = lease;
          double waitedMs = (System.nanoTime() - started) / 1e6;
          return work(lease, job, ticket).map(r -> r.put("timings", JsonFields.object(1).put("poolWaitMs", waitedMs)))
              .eventually(() -> {
            // Forget the lease first so no new cancel targets it, and let a cancel already on its
            // way land before the connection goes back: a PG cancel request arriving late would
            // otherwise stop the next caller's statement on the same backend.
            q.lease = null;
            Future<Void> landed = q.cancelSent == null ? Future.succeededFuture()
                : q.cancelSent.timeout(2, TimeUnit.SECONDS).otherwiseEmpty();
            return landed.compose(v -> giveBack(lease));
          });
        })
        .recover(err -> failure(q, err, timeoutMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)))
        .onComplete(ar -> {
          vertx.cancelTimer(timer);
          if (ticket.seat() != null && ar.failed() && ar.cause() instanceof SqlError se
              && se.type() == ErrorType.CONNECTION_ERROR) {
            gate.failed(ticket.seat()); // a lost connection takes no more riders
          }
          // a statement cut short by its deadline or a cancel ran for an unknown time, so it is not
          // taken for quick (and does not ride) until it answers in time again
          boolean cutShort = ar.failed() && q.stop != null;
          Future<EngineAdapter.Lease> emptied = gate.release(ticket, oneTrip ? job.sql() : null, cutShort);
          if (emptied != null) {
            // the seat's last rider: its connection goes back to the driver's pool
            emptied.onSuccess(engine::release);
          }
          inFlight.remove(job.queryId());
          if (ar.succeeded()) {
            q.reply.tryComplete(ar.result());
          } else {
            q.reply.tryFail(ar.cause());
          }
        });
    return q.reply.future();
  }

  /**
   * The call's lease: its own connection, or for a rider its view of the seat's shared one (the
   * seat's first rider leases it for all of them).
   */
  private Future<EngineAdapter.Lease> lease(PoolGate.Ticket t, Job job, boolean oneTrip) {
    long timeoutMs = job.timeoutMs();
    PoolGate.Seat seat = t.seat();
    if (seat == null) {
      return job.mode() == SqlRequest.Mode.WRITE ? engine.leaseWrite(timeoutMs)
          : oneTrip ? engine.leaseBare(timeoutMs) : engine.lease(timeoutMs);
    }
    return seat.lease(() -> engine.leaseBare(timeoutMs)
        .map(shared -> {
          if (shared.bare() == null) {
            throw new IllegalStateException("a shared connection needs a bare lease");
          }
          // only session-neutral reads ride: the connection goes back without a reset
          shared.bare().reset = Future.succeededFuture();
          return shared;
        })
        .onFailure(err -> gate.failed(seat)))
        .map(shared -> new EngineAdapter.Lease(shared.conn(), shared.backendId(), shared.opened(),
            new EngineAdapter.Bare(true)));
  }

  /** A lease the call is done with: its own goes back to the pool; a rider's view is simply dropped. */
  private Future<Void> giveBack(EngineAdapter.Lease lease) {
    return lease.bare() != null && lease.bare().shared ? Future.succeededFuture() : engine.release(lease);
  }

  private Future<JsonObject> work(EngineAdapter.Lease lease, Job job, PoolGate.Ticket ticket) {
    switch (job.mode()) {
      case WRITE:
        return lease.opened().compose(v -> write(lease, job.sql(), new ResultCollector(engine, job.maxRows(), r -> { })));
      case EXPLAIN:
        return lease.opened().compose(v -> engine.single(lease.conn(), engine.explainSql(job.sql(), job.analyze())))
            .map(rs -> {
              List<Row> rows = new ArrayList<>();
              rs.forEach(rows::add);
              return engine.renderPlan(rows);
            });
      default:
        ResultCollector collector = new ResultCollector(engine, job.maxRows(), job.onRows(),
            job.mode() == SqlRequest.Mode.CHECKSUM ? new RowChecksum(job.floatDigits()) : null);
        return read(lease, job, collector, ticket);
    }
  }

  /**
   * A plain read whose whole answer (maxRows and the one row that tells truncation) fits one fetch
   * may run without a transaction, in one round trip, where the engine offers it. The default row
   * cap (1,000) is one fetch: its 1,001st row only tells truncation.
   */
  private boolean oneTrip(Job job) {
    return job.mode() == SqlRequest.Mode.QUERY && job.params() == null && engine.cursorReadable(job.kind())
        && job.maxRows() <= ResultCollector.FETCH_SIZE && engine.oneTripFits(job.guarded(), job.maxRows() + 1);
  }

  private Future<JsonObject> read(EngineAdapter.Lease lease, Job job, ResultCollector collector,
      PoolGate.Ticket ticket) {
    if (lease.bare() != null) {
      return engine.readInOneTrip(lease, job.sql(), job.maxRows() + 1, job.guarded())
          .andThen(ar -> gate.answered(ticket))
          .map(collector::collect);
    }
    if (job.params() != null) {
      // typed binding by SQL Client Templates (extended protocol): #{name} becomes $n / ?, never spliced
      return lease.opened().compose(v -> SqlTemplate.forQuery(lease.conn(), job.sql()).execute(job.params().getMap()))
          .map(collector::collect);
    }
    if (!engine.cursorReadable(job.kind())) {
      return lease.opened().compose(v -> engine.single(lease.conn(), job.sql())).map(collector::collect);
    }
    // Preparing executes nothing, so it may ride behind a transaction start still on the wire.
    Future<PreparedStatement> prepared = lease.conn().prepare(job.sql());
    return lease.opened()
        .transform(open -> open.succeeded() ? prepared
            : prepared.compose(PreparedStatement::close).transform(x -> Future.failedFuture(open.cause())))
        .compose(ps -> collector.drain(ps.cursor())
            // Server-side statements outlive the lease (PG session, MySQL max_prepared_stmt_count).
            // Closing one also closes its cursor. Not awaited: the release's ROLLBACK queues
            // behind it on the same connection, so both share one round trip.
            .andThen(ar -> ps.close()));
  }

  /** One write in its READ WRITE transaction: rows affected, RETURNING rows (capped), then COMMIT. */
  private Future<JsonObject> write(EngineAdapter.Lease lease, String sql, ResultCollector collector) {
    return engine.single(lease.conn(), sql).compose(rs -> {
      JsonObject out = collector.collect(rs).put("rowsAffected", rs.rowCount());
      return lease.conn().query("COMMIT").execute().map(x -> out);
    });
  }

  @Override
  public boolean cancel(String queryId) {
    InFlightQuery q = inFlight.get(queryId);
    if (q == null || q.stop != null) {
      return false;
    }
    stop(q, InFlightQuery.Stop.CANCELLED, new SqlError(ErrorType.CANCELLED, "query " + queryId + " was cancelled"));
    return true;
  }

  /** Stops a running query from outside; the reply fails with {@code error} once the engine was told. */
  private void stop(InFlightQuery q, InFlightQuery.Stop why, SqlError error) {
    if (q.stop == null) {
      q.stop = why;
    }
    if (q.ticket != null && gate.leave(q.ticket, error)) {
      // still waiting: out of the queue, so it takes no slot later
      return;
    }
    if (q.lease != null && q.lease.bare() != null && q.lease.bare().shared) {
      // A rider's backend serves other riders: a cancel request would stop whichever statement it
      // runs. The read is short (it ran short last time) and bounded by the session's deadline;
      // the caller is answered now and the answer, when it comes, is dropped.
      q.reply.tryFail(error);
      return;
    }
    if (q.lease != null && q.lease.bare() != null) {
      q.lease.bare().cancelled = true; // the cancel may land on the session reset behind the statement
    }
    Future<Void> told = q.lease == null ? Future.succeededFuture() : q.engine.cancel(q.lease).otherwiseEmpty();
    q.cancelSent = told;
    if (why == InFlightQuery.Stop.DEADLINE) {
      // The deadline answer must not wait for a side connection; the backend stops on its own time.
      q.reply.tryFail(error);
    }
    told.onComplete(ar -> q.reply.tryFail(error));
  }

  private SqlError stopError(InFlightQuery q, long timeoutMs) {
    return q.stop == InFlightQuery.Stop.CANCELLED
        ? new SqlError(ErrorType.CANCELLED, "query " + q.queryId + " was cancelled")
        : SqlBus.deadlineError(timeoutMs);
  }

  private Future<JsonObject> failure(InFlightQuery q, Throwable err, long timeoutMs, long elapsedMs) {
    if (q.stop != null || engine.isServerDeadline(err, elapsedMs, timeoutMs)) {
      if (q.stop == null) {
        q.stop = InFlightQuery.Stop.DEADLINE;
      }
      return Future.failedFuture(stopError(q, timeoutMs));
    }
    return Future.failedFuture(err instanceof SqlError se ? se : engine.mapError(err));
  }

  @Override
  public Future<JsonObject> info() {
    JsonObject out = new JsonObject().put("readOnly", true);
    return engine.probe()
        .map(info -> out.put("status", "up").put("serverVersion", info.version()).put("flavour", info.flavour()))
        .recover(err -> Future.succeededFuture(out.put("status", "down")
            .put("error", engine.mapError(err).getMessage())))
        .map(o -> {
          // calls wait in the gate, not in the driver's pool (which sees at most pool_size requests)
          JsonObject pool = engine.poolStats();
          return o.put("pool", pool.put("waiting", pool.getInteger("waiting", 0) + gate.waiting())
              .put("pipelined", gate.riding()));
        });
  }
}
