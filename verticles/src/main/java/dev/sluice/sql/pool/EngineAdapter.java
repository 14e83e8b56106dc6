package dev.sluice.sql.pool;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.StatementKind;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import java.util.List;

/**
 * What one network engine (PostgreSQL, MySQL/MariaDB) supplies to the shared executor flow in
 * {@link SqlExecutorVerticle}: pools, the read-only deadline-bound session, cancellation, error
 * mapping and plan rendering. One instance per configured connection; {@link PooledExecution}
 * runs the statements on it.
 */
public interface EngineAdapter {

  /** Builds the pools; resolves even when the server is down (status is then "down"). */
  Future<Void> start();

  Future<Void> close();

  /**
   * Leases a pooled connection and opens (or starts opening, see {@link Lease#opened}) a READ ONLY
   * transaction whose server-side deadline is {@code timeoutMs}.
   */
  Future<Lease> lease(long timeoutMs);

  /**
   * Rolls back, clears whatever session state the call could have left (locks, settings, temporary
   * objects, cursors) and returns the connection to the pool; never fails.
   */
  Future<Void> release(Lease lease);

  /** Like {@link #lease}, but the transaction is READ WRITE: only for gated writes. */
  default Future<Lease> leaseWrite(long timeoutMs) {
    return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "this engine does not take writes"));
  }

  /**
   * Like {@link #lease}, but may hand out a bare lease ({@link Lease#bare} non-null): no
   * transaction is opened because the session's own defaults already make every statement read
   * only with exactly this deadline. Only a read that {@link #readInOneTrip} can finish asks for it.
   */
  default Future<Lease> leaseBare(long timeoutMs) {
    return lease(timeoutMs);
  }

  /**
   * A bare lease's read in one network round trip: the statement with a row limit of {@code rows}
   * (no second fetch: the implicit transaction, and the portal with it, ends with the statement)
   * and the session reset written right behind it; {@link Bare#reset} is that reset's outcome.
   * {@code guarded} is the statement's analysis (null when unguarded): an engine may leave the
   * reset out for a statement that cannot have left anything on the session.
   */
  default Future<Rows> readInOneTrip(Lease lease, String sql, int rows, AnalysedStatement guarded) {
    return Future.failedFuture(new IllegalStateException("no one-trip reads on this engine"));
  }

  /**
   * Whether {@link #readInOneTrip} can stop this statement after {@code rows} rows. PostgreSQL's
   * Execute carries the limit, so any read; an engine whose limit is a session setting that the
   * statement's own clauses override says which ({@code guarded} is null when unguarded).
   */
  default boolean oneTripFits(AnalysedStatement guarded, int rows) {
    return true;
  }

  /**
   * Whether this one-trip read may ride a connection together with other such reads in flight
   * (pipelined; see {@link PoolGate}): it cannot leave anything on the session, so it needs no
   * reset and no reader after it can notice it. Decided once, when the call enters the queue; its
   * lease then says so ({@link Bare#shared}). Engines that do not pipeline say no.
   */
  default boolean sharesConnection(AnalysedStatement guarded) {
    return false;
  }

  /** Stops the statement running on a lease from outside (cancel request / KILL QUERY). */
  Future<Void> cancel(Lease lease);

  /** A quick liveness probe on a side connection: version and flavour, or a failure. */
  Future<ServerInfo> probe();

  /**
   * Whether the engine can read a statement of this kind through a server cursor. Kinds that
   * cannot (MariaDB answers 1421 "no open cursor" for EXPLAIN, SHOW, DESCRIBE) return small,
   * bounded results and are read in one go through {@link #single}.
   */
  default boolean cursorReadable(StatementKind kind) {
    return true;
  }

  /**
   * Runs one statement read whole, on a path that cannot carry a second statement: PostgreSQL's
   * extended protocol, MySQL's text protocol with multi-statements switched off on the connection.
   */
  Future<RowSet<Row>> single(SqlConnection conn, String sql);

  /** The statement that explains {@code sql} as JSON. */
  String explainSql(String sql, boolean analyze);

  /** Turns the engine's JSON plan rows into the explain reply fields. */
  JsonObject renderPlan(List<Row> rows);

  /** One cell as JSON, applying the engine's type quirks before {@link dev.sluice.sql.result.ValueFormat}. */
  Object cell(Row row, int index, ColumnDescriptor column);

  /**
   * Why the driver cannot read this column's values (it would hand over null for every one), or
   * null when it can. A result with such a column fails with this message rather than show nulls.
   */
  default String unreadable(ColumnDescriptor column) {
    return null;
  }

  /** The engine's name for a column type. */
  String typeName(ColumnDescriptor column);

  /** Maps an engine failure to an agent-facing error (no suggestions yet). */
  SqlError mapError(Throwable failure);

  /** Whether the failure is the engine's own statement deadline, {@code elapsedMs} into the call. */
  boolean isServerDeadline(Throwable failure, long elapsedMs, long timeoutMs);

  /** Names an agent might have meant: tables ({@code columns=false}) or columns of the live schema. */
  Future<List<String>> knownNames(boolean columns, String qualifier);

  /** Pool counters for info. */
  JsonObject poolStats();

  /** The connection this engine serves (pool size, wait queue policy). */
  dev.sluice.config.ConnectionConfig config();

  /**
   * A leased connection with the engine's id of the backend serving it. {@code opened} is the
   * transaction start: an engine that pipelines may hand out the lease while it is still on the
   * wire, so the first statement travels in the same round trip. Nothing that executes may run
   * before {@code opened} succeeded.
   */
  record Lease(SqlConnection conn, long backendId, Future<Void> opened, Bare bare) {
    public Lease(SqlConnection conn, long backendId, Future<Void> opened) {
      this(conn, backendId, opened, null);
    }
  }

  /**
   * What a bare lease (no transaction) needs at release: whether its pipelined session reset went
   * through, and whether a cancel request may have hit that reset instead of the statement. Only
   * touched on the executor verticle's context.
   */
  final class Bare {
    /**
     * A rider's lease: the connection is shared with other session-neutral reads in flight, so
     * nothing is reset after this read and no cancel request may be sent for it (it would stop
     * whichever rider's statement the backend is running).
     */
    public final boolean shared;
    /** The reset written behind the statement; null until {@link #readInOneTrip} sent it. */
    public Future<Void> reset;
    public boolean cancelled;

    public Bare() {
      this(false);
    }

    public Bare(boolean shared) {
      this.shared = shared;
    }
  }

  /** The first rows of a result with its columns (null columns: a statement without any). */
  record Rows(List<ColumnDescriptor> columns, List<Row> rows) {}

  /** What a probe learned. */
  record ServerInfo(String version, String flavour) {}
}
