package dev.sluice.engine.postgres;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ConnectTarget;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.pool.CommandGroup;
import dev.sluice.sql.pool.PooledEngine;
import dev.sluice.sql.tls.DatabaseTls;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;
import io.vertx.core.internal.ContextInternal;
import io.vertx.sqlclient.ClientBuilder;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PropertyKind;
import io.vertx.sqlclient.internal.QueryResultHandler;
import io.vertx.sqlclient.internal.RowDesc;
import io.vertx.sqlclient.internal.command.CommandScheduler;
import io.vertx.sqlclient.internal.command.ExtendedQueryCommand;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnectOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collector;
import java.util.regex.Pattern;

/**
 * PostgreSQL on the Vert.x PG client: read-only sessions with {@code statement_timeout}, every
 * statement on the extended protocol (one statement per Parse), cancel requests, SQLSTATE
 * mapping, JSON plans, and a session reset after every call that may have left anything on the
 * session.
 *
 * <p>A small read with the connection's own deadline takes one round trip: the session is read
 * only with that deadline from its startup parameters (and the reset puts both back after any
 * call that could have changed them), so the statement needs no transaction of its own; its
 * Bind/Execute with a row limit and the reset go out together, and the statement comes from the
 * connection's prepared-statement cache, so no Parse waits in front of them after the first call
 * of the same SQL. A read that cannot have changed the session ({@link SessionNeutralReads}: plain
 * tables, allow-listed functions, no casts) goes alone: one transaction per call instead of three.
 */
final class PgAdapter extends PooledEngine {

  private static final Pattern RELATION = Pattern.compile("relation \"([^\"]+)\" does not exist");
  private static final Pattern COLUMN = Pattern.compile("column \"?([^\" ]+?)\"? does not exist");

  /**
   * What a call could leave on a session, cleared after its ROLLBACK: DISCARD ALL, which cannot run
   * in the implicit transaction of a multi-statement query, spelled out; but DEALLOCATE ALL would
   * also drop the driver's cached statements, so it only lists the statements made by an SQL
   * PREPARE, which {@link #resetSession} then deallocates by name.
   */
  static final String RESET = "CLOSE ALL; UNLISTEN *; SELECT pg_advisory_unlock_all(); RESET ALL; "
      + "SET SESSION AUTHORIZATION DEFAULT; DISCARD TEMP; DISCARD SEQUENCES";

  /**
   * The statements an SQL PREPARE left. Sent on the extended protocol, so the driver's statement
   * cache keeps its plan: planning this view query as text took about 50 µs of server time per
   * call, most of the whole reset's cost (pgbench, 2026-11-28: reset 160 µs with it, 109 without).
   */
  static final String SQL_PREPARED = "SELECT name FROM pg_prepared_statements WHERE from_sql";

  /** Which reads may go without the reset (PostgreSQL's catalog tells, cached per name). */
  private final SessionNeutralReads neutralReads = new SessionNeutralReads();
  private final RiderWrites riderWrites = new RiderWrites();

  PgAdapter(Vertx vertx, ConnectionConfig cfg) {
    super(vertx, cfg);
  }

  @Override
  protected ClientBuilder<Pool> builder() {
    return PgBuilder.pool();
  }

  @Override
  protected SqlConnectOptions connectOptions() {
    ConnectTarget t = ConnectTarget.of(cfg, 5432);
    PgConnectOptions o = new PgConnectOptions().setHost(t.host()).setPort(t.port());
    if (t.database() != null) o.setDatabase(t.database());
    if (t.user() != null) o.setUser(t.user());
    if (t.password() != null) o.setPassword(t.password());
    // addProperty, not setProperties: the latter drops the client's defaults (DESIGN "Driver facts").
    o.addProperty("statement_timeout", Long.toString(cfg.queryTimeoutMs()));
    o.addProperty("default_transaction_read_only", "on");
    // A transaction left open by a lost gateway must not hold locks for long.
    o.addProperty("idle_in_transaction_session_timeout", Long.toString(Math.max(60_000, cfg.queryTimeoutMs() * 2)));
    o.addProperty("TimeZone", "UTC");
    // the analysis lexes '...' with backslash as a plain character: the server must read it alike
    o.addProperty("standard_conforming_strings", "on");
    o.addProperty("application_name", "sluice");
    // a repeated statement skips its Parse round trip; the driver drops an entry the server
    // invalidated (a table changed under it) and the reset above keeps the cached ones
    o.setCachePreparedStatements(true);
    return DatabaseTls.postgres(o, cfg.url());
  }

  @Override
  protected Future<Lease> openSession(SqlConnection conn, long timeoutMs, boolean write) {
    // Not awaited: the client pipelines, so the statement's Parse follows this on the wire and the
    // server applies both in order. SET LOCAL dies with the ROLLBACK (or the write's COMMIT).
    Future<Void> opened = conn.query("BEGIN TRANSACTION " + (write ? "READ WRITE" : "READ ONLY")
        + "; SET LOCAL statement_timeout = " + timeoutMs).execute().mapEmpty();
    return Future.succeededFuture(new Lease(conn, PgConnection.cast(conn).processId(), opened));
  }

  @Override
  protected Lease bareLease(SqlConnection conn, long timeoutMs) {
    // the startup parameters hold read only and exactly this deadline (the reset restores them)
    return timeoutMs == cfg.queryTimeoutMs()
        ? new Lease(conn, PgConnection.cast(conn).processId(), Future.succeededFuture(), new Bare())
        : null;
  }

  /**
   * Parse (only for SQL not yet in the connection's statement cache), Bind, Execute with a row
   * limit, Sync, then the reset unless the read is session-neutral (and, for names whose standing
   * is not known, the catalog look-up): all written before any answer arrives. The public API has no
   * row-limited execute without a prepared statement and a cursor (a Parse round trip first), so
   * this schedules the driver's own extended-query command, as its cursor does, on the unnamed
   * portal. The limit stops the server after {@code rows} rows; the Sync ends the implicit
   * transaction and the portal with it.
   */
  @Override
  public Future<Rows> readInOneTrip(Lease lease, String sql, int rows, AnalysedStatement guarded) {
    List<Row> kept = new ArrayList<>();
    List<List<ColumnDescriptor>> columns = new ArrayList<>(1);
    QueryResultHandler<List<Row>> described = new QueryResultHandler<>() {
      @Override
      public <V> void addProperty(PropertyKind<V> property, V value) {
      }

      @Override
      public void handleResult(int updated, int size, RowDesc desc, List<Row> result, Throwable failure) {
        if (desc != null && columns.isEmpty()) {
          columns.add(desc.columnDescriptor());
        }
      }
    };
    ExtendedQueryCommand<List<Row>> command = ExtendedQueryCommand.createQuery(sql, new PrepareOptions(), null,
        Tuple.tuple(), rows, null, false, true, Collector.of(() -> kept, List::add, (a, b) -> a), described);
    ContextInternal context = (ContextInternal) vertx.getOrCreateContext();
    Promise<Boolean> read = context.promise();
    if (lease.bare().shared) {
      // a rider: neutral by admission, so nothing follows it; it leaves with this turn's others
      // (its lease view is never released: the seat's lease carries the no-reset outcome)
      riderWrites.add(context, lease.conn(), flight -> flight.schedule(command, read));
      return read.future().map(suspended -> new Rows(columns.isEmpty() ? null : columns.get(0), kept));
    }
    // one group, one flush: the statement and the reset leave in a single socket write (three
    // separate schedules were three writes, about a sixth of the event loops' time under load)
    long now = System.currentTimeMillis();
    boolean neutral = neutralReads.neutral(guarded, now);
    List<String> lookUps = neutral ? List.of() : neutralReads.toLookUp(guarded, now);
    CommandGroup.send(lease.conn(), flight -> {
      ((CommandScheduler) flight).schedule(command, read);
      if (neutral) {
        lease.bare().reset = Future.succeededFuture();
        return;
      }
      List<Future<?>> after = new ArrayList<>();
      after.add(resetSession(flight, lease.conn()));
      // what the catalog says of the names read, behind the reset: no round trip of its own
      for (String name : lookUps) {
        after.add(flight.preparedQuery(SessionNeutralReads.LOOK_UP).execute(Tuple.of(name))
            .andThen(ar -> neutralReads.learned(name, ar.failed() ? Boolean.FALSE : standing(ar.result()),
                System.currentTimeMillis()))
            .otherwiseEmpty());
      }
      lease.bare().reset = Future.all(after).mapEmpty();
    });
    return read.future().map(suspended -> new Rows(columns.isEmpty() ? null : columns.get(0), kept));
  }

  /** What a look-up's row says: neutral or not; null when there is no such relation. */
  private static Boolean standing(RowSet<Row> rs) {
    return rs.size() == 0 ? null : rs.iterator().next().getBoolean(0);
  }

  @Override
  protected SessionNeutralReads standings() {
    return neutralReads;
  }

  /** The side connections have the same startup parameters: a name resolves there as on the reads' own. */
  @Override
  protected Future<Boolean> lookUpStanding(String key) {
    return onSide(conn -> conn.preparedQuery(SessionNeutralReads.LOOK_UP).execute(Tuple.of(key))).map(PgAdapter::standing);
  }

  /**
   * A read the catalog already showed to be session-neutral (cached, no look-up now) may share a
   * connection: it needs no reset behind it, and the riders before and after it run as if each had
   * the session alone.
   */
  @Override
  public boolean sharesConnection(AnalysedStatement guarded) {
    return guarded != null && neutralReads.neutral(guarded, System.currentTimeMillis());
  }

  @Override
  protected Future<Void> resetSession(SqlConnection conn) {
    return resetSession(conn, conn);
  }

  /**
   * @param flight where the reset's two statements are sent: the connection, or a group that
   *     writes them together with what precedes them
   * @param conn the connection, for the DEALLOCATE that may follow their answers
   */
  private static Future<Void> resetSession(SqlClient flight, SqlConnection conn) {
    // both written before either answer arrives: one flight
    Future<RowSet<Row>> reset = flight.query(RESET).execute();
    Future<RowSet<Row>> prepared = flight.preparedQuery(SQL_PREPARED).execute();
    return Future.all(reset, prepared).compose(both -> {
      List<String> deallocate = new ArrayList<>();
      for (Row r : prepared.result()) {
        deallocate.add("DEALLOCATE \"" + r.getString(0).replace("\"", "\"\"") + "\"");
      }
      return deallocate.isEmpty() ? Future.<Void>succeededFuture()
          : conn.query(String.join("; ", deallocate)).execute().<Void>mapEmpty();
    });
  }

  /** The extended protocol: PostgreSQL refuses a second statement in one Parse (42601). */
  @Override
  public Future<RowSet<Row>> single(SqlConnection conn, String sql) {
    return conn.preparedQuery(sql).execute();
  }

  @Override
  protected Future<ServerInfo> detect(SqlConnection conn) {
    return conn.query("SHOW server_version").execute()
        .map(rs -> new ServerInfo(rs.iterator().next().getString(0), "postgresql"));
  }

  @Override
  public Future<Void> cancel(Lease lease) {
    return PgConnection.cast(lease.conn()).cancelRequest();
  }

  @Override
  public String explainSql(String sql, boolean analyze) {
    return "EXPLAIN (FORMAT JSON" + (analyze ? ", ANALYZE" : "") + ") " + sql;
  }

  @Override
  public JsonObject renderPlan(List<Row> rows) {
    Object v = rows.get(0).getValue(0);
    JsonArray doc = v instanceof JsonArray a ? a : new JsonArray(String.valueOf(v));
    JsonObject top = doc.getJsonObject(0);
    JsonObject plan = top.getJsonObject("Plan");
    List<String> lines = new ArrayList<>();
    describe(plan, 0, lines);
    if (top.containsKey("Execution Time")) {
      lines.add("Execution Time: " + top.getValue("Execution Time") + " ms");
    }
    JsonObject out = new JsonObject()
        .put("format", "postgresql-json")
        .put("plan", new JsonArray(lines))
        .put("planJson", doc)
        .put("estimatedRows", plan.getValue("Plan Rows"));
    if (plan.containsKey("Total Cost")) {
      out.put("estimatedCost", plan.getValue("Total Cost"));
    }
    return out;
  }

  private static void describe(JsonObject node, int depth, List<String> lines) {
    StringBuilder b = new StringBuilder("  ".repeat(depth));
    if (depth > 0) b.append("->  ");
    b.append(node.getString("Node Type"));
    if (node.containsKey("Relation Name")) {
      b.append(" on ").append(node.getString("Relation Name"));
      String alias = node.getString("Alias");
      if (alias != null && !alias.equals(node.getString("Relation Name"))) b.append(' ').append(alias);
    }
    b.append("  (cost=").append(node.getValue("Startup Cost")).append("..").append(node.getValue("Total Cost"))
        .append(" rows=").append(node.getValue("Plan Rows")).append(" width=").append(node.getValue("Plan Width")).append(')');
    if (node.containsKey("Actual Total Time")) {
      b.append(" (actual time=").append(node.getValue("Actual Startup Time")).append("..")
          .append(node.getValue("Actual Total Time")).append(" rows=").append(node.getValue("Actual Rows"))
          .append(" loops=").append(node.getValue("Actual Loops")).append(')');
    }
    lines.add(b.toString());
    for (String key : List.of("Index Cond", "Hash Cond", "Join Filter", "Filter", "Sort Key", "Group Key")) {
      if (node.containsKey(key)) {
        lines.add("  ".repeat(depth + 2) + key + ": " + node.getValue(key));
      }
    }
    JsonArray children = node.getJsonArray("Plans");
    if (children != null) {
      for (int i = 0; i < children.size(); i++) {
        describe(children.getJsonObject(i), depth + 1, lines);
      }
    }
  }

  @Override
  public Object cell(Row row, int index, ColumnDescriptor column) {
    return PgText.format(row.getValue(index));
  }

  /**
   * Types the PG client asks for in binary and then decodes to null, whatever the value: oid,
   * bit, varbit, xml, macaddr, macaddr8 (and their arrays). Read as text they are fine.
   */
  private static final java.util.Set<String> DECODED_AS_NULL = java.util.Set.of("OID", "OID_ARRAY", "BIT", "BIT_ARRAY",
      "VARBIT", "VARBIT_ARRAY", "XML", "XML_ARRAY", "MACADDR", "MACADDR8");

  @Override
  public String unreadable(ColumnDescriptor column) {
    if (!DECODED_AS_NULL.contains(String.valueOf(column.typeName()))) {
      return null;
    }
    String type = typeName(column);
    return "column \"" + column.name() + "\" is of type " + type + ", which the gateway cannot read (every value"
        + " would come back as null); cast it to text in the query, e.g. " + column.name() + "::text";
  }

  @Override
  public String typeName(ColumnDescriptor column) {
    String t = column.typeName();
    return t == null ? String.valueOf(column.jdbcType()) : t.toLowerCase(Locale.ROOT);
  }

  @Override
  public boolean isServerDeadline(Throwable failure, long elapsedMs, long timeoutMs) {
    return failure instanceof PgException pe && "57014".equals(pe.getSqlState());
  }

  @Override
  public SqlError mapError(Throwable failure) {
    if (!(failure instanceof PgException pe)) {
      SqlError common = commonError(failure);
      return common != null ? common : new SqlError(ErrorType.INTERNAL_ERROR, firstLine(String.valueOf(failure.getMessage())));
    }
    String state = pe.getSqlState() == null ? "" : pe.getSqlState();
    String msg = pe.getErrorMessage() == null ? firstLine(String.valueOf(pe.getMessage())) : pe.getErrorMessage();
    ErrorType type = switch (state) {
      case "42601" -> ErrorType.SYNTAX_ERROR;
      case "42P01" -> ErrorType.TABLE_NOT_FOUND;
      case "42703" -> ErrorType.COLUMN_NOT_FOUND;
      case "42501" -> ErrorType.PERMISSION_DENIED;
      case "57014" -> ErrorType.TIMEOUT;
      case "25006" -> ErrorType.VALIDATION_FAILED;
      case "57P01", "57P02", "57P03", "53300" -> ErrorType.CONNECTION_ERROR;
      default -> state.startsWith("08") ? ErrorType.CONNECTION_ERROR : ErrorType.QUERY_ERROR;
    };
    SqlError e = new SqlError(type, msg).with("sql_state", state);
    if (pe.getPosition() != null) {
      try {
        e.with("position", Integer.parseInt(pe.getPosition()));
      } catch (NumberFormatException ignored) {
        // position is advisory
      }
    }
    if (pe.getHint() != null) {
      e.with("hint", pe.getHint());
    }
    if (type == ErrorType.TABLE_NOT_FOUND) {
      e.with("name", SqlExecutorVerticle.nameIn(msg, RELATION));
    } else if (type == ErrorType.COLUMN_NOT_FOUND) {
      String col = SqlExecutorVerticle.nameIn(msg, COLUMN);
      e.with("name", col == null ? null : col.substring(col.lastIndexOf('.') + 1));
    }
    return e;
  }

  @Override
  public Future<List<String>> knownNames(boolean columns, String qualifier) {
    String sql = columns
        ? "SELECT DISTINCT column_name::text FROM information_schema.columns"
            + " WHERE table_schema NOT IN ('pg_catalog', 'information_schema') LIMIT 20000"
        : "SELECT table_name::text FROM information_schema.tables WHERE "
            + (qualifier == null ? "table_schema = ANY (current_schemas(false)) AND $1::text IS NULL" : "table_schema = $1")
            + " LIMIT 20000";
    return onSide(conn -> (columns ? conn.query(sql).execute() : conn.preparedQuery(sql).execute(Tuple.of(qualifier)))
        .map(rs -> {
          List<String> names = new ArrayList<>();
          rs.forEach(r -> names.add(r.getString(0)));
          return names;
        }));
  }
}
