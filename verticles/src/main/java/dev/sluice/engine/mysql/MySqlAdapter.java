package dev.sluice.engine.mysql;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ConnectTarget;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.pool.CommandGroup;
import dev.sluice.sql.pool.PooledEngine;
import dev.sluice.sql.result.ValueFormat;
import dev.sluice.sql.tls.DatabaseTls;
import dev.sluice.sql.analysis.AnalysedStatement;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import io.vertx.mysqlclient.impl.command.ResetConnectionCommand;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlResult;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.vertx.sqlclient.impl.SocketConnectionBase;
import io.vertx.sqlclient.internal.Connection;
import io.vertx.sqlclient.internal.SqlConnectionInternal;
import io.vertx.sqlclient.internal.command.CommandScheduler;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.stream.Collector;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnection;
import io.vertx.mysqlclient.MySQLSetOption;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.mysqlclient.data.spatial.Geometry;
import io.vertx.sqlclient.ClientBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnectOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL and MariaDB: every connection has multi-statements switched off (a text query carries one
 * statement), a pinned sql_mode (backslash escapes on, ANSI_QUOTES off: what the analysis lexes),
 * UTC and READ ONLY; the flavour decides the server deadline (MariaDB {@code max_statement_time} in
 * seconds, error 1969; MySQL {@code max_execution_time} in ms, error 3024); cancellation is {@code
 * KILL QUERY} from the side pool because the client has no cancel; COM_RESET_CONNECTION after every
 * call that may have left anything on the session.
 *
 * <p>A small read with the connection's own deadline takes one round trip: the session carries READ
 * ONLY, that deadline and a row cap ({@code sql_select_limit}) from its set-up, so the statement
 * needs no transaction; it goes on the text protocol with the reset and the set-up behind it, or,
 * on MariaDB when it reads base tables only ({@link SessionNeutralReads}), alone: one command per
 * call instead of four. What such a read leaves, its row count and warnings, is cleared in front
 * of the next statement on the connection that could read them.
 */
final class MySqlAdapter extends PooledEngine {

  /** The session's sql_mode without the modes that change how quotes and backslashes read. */
  private static final String PIN_SQL_MODE = "TRIM(BOTH ',' FROM REPLACE(REPLACE(REPLACE("
      + "CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','), ',ANSI_QUOTES,', ','), ',ANSI,', ','))";

  /**
   * An empty read of a table: FOUND_ROWS() is 0 after it and the warnings and errors are gone (a
   * read of no table, {@code SELECT 0 FROM DUAL WHERE 0}, leaves the warnings in place: MariaDB
   * 10.11). It ends every reset, and goes in front of a statement that could read what a previous
   * call's read left.
   */
  private static final String CLEAR_DIAGNOSTICS = "SELECT 1 FROM (SELECT 1) AS t WHERE 0";

  /** What a pinned sql_mode may hold to be written back as a literal: mode names and commas. */
  private static final Pattern SQL_MODE_NAMES = Pattern.compile("[A-Z0-9_,]*");

  /**
   * The query pool's standing {@code sql_select_limit}: the executor reads in one trip only up to
   * its fetch size of 1,000 rows and the one that tells truncation. Every other statement runs in
   * a lease whose set-up puts the limit back to DEFAULT.
   */
  static final int ONE_TRIP_ROW_CAP = 1_001;

  private static final Pattern TABLE = Pattern.compile("Table '([^']+)' doesn't exist");
  private static final Pattern COLUMN = Pattern.compile("Unknown column '([^']+)'");
  private static final Pattern RAW_MESSAGE =
      Pattern.compile("\\{errorMessage=(.*), errorCode=\\d+, sqlState=[^}]*}", Pattern.DOTALL);

  /** How often the boolean/JSON column hints are re-read from information_schema. */
  private static final long HINTS_REFRESH_MS = 30_000;

  private volatile MySqlColumnHints hints = MySqlColumnHints.NONE;
  /** Each physical connection's backend id (CONNECTION_ID()), read once when it was opened. */
  private final Map<Object, Long> backendIds = Collections.synchronizedMap(new WeakHashMap<>());
  /**
   * The query pool's set-up after a reset, with the sql_mode {@link #PIN_SQL_MODE} made on the
   * connection opened last written as a literal (the server spends about 10 µs less on it than on
   * the string functions, measured on MariaDB 10.11), built once instead of on every call; null
   * until a connection gave a sql_mode that is mode names and commas only.
   */
  private volatile String setUpAfterReset;
  /** Which reads may go without the reset and the set-up (information_schema tells, cached per name). */
  private final SessionNeutralReads neutralReads = new SessionNeutralReads();
  /**
   * The physical connections whose row count, warnings and errors are a previous call's: a neutral
   * read left them, and nothing cleared them since. The clear goes in front of the next statement
   * that could read them ({@link SessionNeutralReads#readsDiagnostics}), not behind every read.
   */
  private final Set<Object> uncleared = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
  private long hintsTimer = -1;

  MySqlAdapter(Vertx vertx, ConnectionConfig cfg) {
    super(vertx, cfg);
  }

  @Override
  public Future<Void> start() {
    return super.start().compose(v -> refreshHints()).onComplete(ar ->
        hintsTimer = vertx.setPeriodic(HINTS_REFRESH_MS, id -> refreshHints()));
  }

  private Future<Void> refreshHints() {
    return onSide(conn -> MySqlColumnHints.load(conn, mariadb()))
        .onSuccess(h -> hints = h)
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  @Override
  public Future<Void> close() {
    vertx.cancelTimer(hintsTimer);
    return super.close();
  }

  @Override
  protected ClientBuilder<Pool> builder() {
    return MySQLBuilder.pool();
  }

  @Override
  protected SqlConnectOptions connectOptions() {
    ConnectTarget t = ConnectTarget.of(cfg, 3306);
    // pipelining lets a lease's set-up statements and a release's reset travel in one write
    MySQLConnectOptions o = new MySQLConnectOptions().setHost(t.host()).setPort(t.port()).setCharset("utf8mb4")
        .setPipeliningLimit(16);
    if (t.database() != null) o.setDatabase(t.database());
    if (t.user() != null) o.setUser(t.user());
    if (t.password() != null) o.setPassword(t.password());
    return DatabaseTls.mysql(o, cfg.url());
  }

  /**
   * Connect-option properties are connection attributes, not session variables (DESIGN "Driver
   * facts"), so the session is set up here. UTC makes TIMESTAMP values comparable with PG timestamptz.
   * The backend's id is read once: a reset keeps it, and a bare lease needs it for KILL QUERY.
   */
  @Override
  protected Handler<SqlConnection> connectHandler(boolean side) {
    return conn -> {
      coalesceFlushes(conn);
      connected(conn, side);
    };
  }

  private void connected(SqlConnection conn, boolean side) {
    MySQLConnection.cast(conn).setOption(MySQLSetOption.MYSQL_OPTION_MULTI_STATEMENTS_OFF)
        .compose(v -> {
          if (serverInfo == null) {
            // the server was down when the start-up probe ran; the next probe reads VERSION()
            serverInfo = new ServerInfo(conn.databaseMetadata().fullVersion(), isMariaDb(conn) ? "mariadb" : "mysql");
          }
          boolean mariadb = mariadb();
          Future<?> setUp = conn.query(setUpSql(mariadb, !side, PIN_SQL_MODE)).execute();
          Future<Row> session = conn.query("SELECT CONNECTION_ID(), @@SESSION.sql_mode").execute()
              .map(rs -> rs.iterator().next());
          return Future.all(setUp, session).onSuccess(x -> {
            backendIds.put(physical(conn), session.result().getLong(0));
            String mode = String.valueOf(session.result().getValue(1));
            setUpAfterReset = SQL_MODE_NAMES.matcher(mode).matches() ? setUpSql(mariadb, true, "'" + mode + "'") : null;
          });
        })
        .eventually(conn::close);
  }

  private static final String FLUSHES = "sluice-flushes";

  /**
   * The MySQL client (5.0.10) flushes the socket after every packet it encodes, so a one-trip read
   * (the statement, the reset, the set-up and the found-rows clear) went out in four send calls and
   * the server woke for each. With the flushes held to the end of the event loop's task, or of the
   * channel's read, what one task writes leaves in one write. Before the codec: its flushes pass here.
   */
  private static void coalesceFlushes(SqlConnection conn) {
    if (physical(conn) instanceof SocketConnectionBase socket) {
      ChannelPipeline pipeline = socket.socket().channelHandlerContext().pipeline();
      if (pipeline.get("codec") != null && pipeline.get(FLUSHES) == null) {
        pipeline.addBefore("codec", FLUSHES, new FlushConsolidationHandler(64, true));
      }
    }
  }

  /**
   * The session every call starts from, in one statement: {@code sqlMode} (the pinning expression,
   * or its result as a literal), UTC, READ ONLY and the connection's deadline (so a read with that
   * deadline needs no transaction of its own), and on the query pool {@link #ONE_TRIP_ROW_CAP} as
   * {@code sql_select_limit}. COM_RESET_CONNECTION drops it, so it is made again after each call that gets one.
   */
  private String setUpSql(boolean mariadb, boolean capped, String sqlMode) {
    return "SET SESSION sql_mode = " + sqlMode + ", time_zone = '+00:00', "
        + (mariadb ? "tx_read_only" : "transaction_read_only") + " = 1, " + deadline(mariadb, cfg.queryTimeoutMs())
        + (capped ? ", sql_select_limit = " + ONE_TRIP_ROW_CAP : "");
  }

  private static String deadline(boolean mariadb, long timeoutMs) {
    return mariadb ? "max_statement_time = " + (timeoutMs / 1000.0) : "max_execution_time = " + timeoutMs;
  }

  /**
   * The Vert.x MySQL client (5.0.10) fails the statement in flight on a lost connection but never
   * answers what was queued behind it (the reset pipelined after a one-trip read, a ROLLBACK).
   */
  @Override
  protected boolean leavesCommandsUnansweredOnLoss() {
    return true;
  }

  /**
   * COM_RESET_CONNECTION: user variables, GET_LOCK locks, temporary tables, prepared statements
   * and session variables go; multi-statements stay off (checked by a test). The set-up follows it
   * in the same write.
   */
  @Override
  protected Future<Void> resetSession(SqlConnection conn) {
    // a session whose reset failed is no longer known to be READ ONLY with the connection's
    // deadline: its later calls open their transaction the long way
    return resetSession(conn, conn, mariadb(), List.of()).onFailure(err -> backendIds.remove(physical(conn)));
  }

  /**
   * The reset, the set-up, the look-ups of {@code lookUps} (names read whose standing is not
   * known) and the clear, in this order on {@code flight}.
   */
  private Future<Void> resetSession(SqlClient flight, SqlConnection conn, boolean mariadb, List<String> lookUps) {
    List<Future<?>> steps = new ArrayList<>(3 + lookUps.size());
    Promise<Void> reset = ((ContextInternal) vertx.getOrCreateContext()).promise();
    ((CommandScheduler) flight).schedule(new ResetConnectionCommand(), reset);
    steps.add(reset.future());
    String afterReset = setUpAfterReset;
    steps.add(flight.query(afterReset != null ? afterReset : setUpSql(mariadb, true, PIN_SQL_MODE)).execute());
    for (String key : lookUps) {
      steps.add(flight.query(SessionNeutralReads.lookUp(key)).execute()
          .andThen(ar -> neutralReads.learned(key, ar.succeeded() && standing(ar.result()),
              System.currentTimeMillis()))
          .otherwiseEmpty());
    }
    // FOUND_ROWS() and the warnings survive COM_RESET_CONNECTION (MariaDB 10.11): the next caller
    // would read this call's row count. (A SET with a scalar subquery leaves it alone: it cannot
    // fold this statement into the set-up.) Last, after the look-ups' own rows.
    steps.add(clear(flight, conn));
    return Future.all(steps).mapEmpty();
  }

  /** The clear on {@code flight}; {@code conn}'s diagnostics are no previous call's once it is sent. */
  private Future<?> clear(SqlClient flight, SqlConnection conn) {
    uncleared.remove(physical(conn));
    return flight.query(CLEAR_DIAGNOSTICS).execute();
  }

  /**
   * A read with the connection's own deadline needs no transaction: the session is READ ONLY with
   * that deadline since its set-up (and the reset after every call makes them again).
   */
  @Override
  protected Lease bareLease(SqlConnection conn, long timeoutMs) {
    Long id = timeoutMs == cfg.queryTimeoutMs() ? backendIds.get(physical(conn)) : null;
    return id == null ? null : new Lease(conn, id, Future.succeededFuture(), new Bare());
  }

  /**
   * Functions that stop early without an error when the deadline kills their statement: on the
   * text protocol MariaDB then answers with a result (BENCHMARK gives 0 after 1 s of a loop of a
   * billion), and MySQL's SLEEP returns 1. Through a cursor the same kill is error 1969.
   */
  private static final Set<String> QUIET_WHEN_KILLED = Set.of("benchmark", "sleep");

  /**
   * On MariaDB, a read the catalog already showed to be session-neutral (cached, no look-up now)
   * may share a connection, pipelined behind others: it needs no reset behind it. What the riders
   * before it leave, their row counts and warnings, is cleared in front of it in the same write
   * when it could read them ({@link #readInOneTrip}), as for a read on a connection of its own.
   */
  @Override
  public boolean sharesConnection(AnalysedStatement guarded) {
    return mariadb() && guarded != null && neutralReads.neutral(guarded, System.currentTimeMillis());
  }

  @Override
  public boolean oneTripFits(AnalysedStatement guarded, int rows) {
    return rows <= ONE_TRIP_ROW_CAP && SelectLimit.bounds(guarded, ONE_TRIP_ROW_CAP)
        && guarded.functions().stream().noneMatch(f -> QUIET_WHEN_KILLED.contains(f.name()));
  }

  /**
   * The statement on the text protocol with the reset and the set-up behind it, or nothing behind
   * it for a read that cannot have changed the session ({@link SessionNeutralReads}); in front of
   * it the clear, when the connection holds another call's row count and warnings and the
   * statement could read them. All written together before any answer arrives: one round trip.
   * The session's {@code sql_select_limit} stops the server after {@link #ONE_TRIP_ROW_CAP} rows
   * ({@link #oneTripFits} admitted only statements it bounds); the collector keeps no more than
   * {@code rows}.
   */
  @Override
  public Future<Rows> readInOneTrip(Lease lease, String sql, int rows, AnalysedStatement guarded) {
    boolean mariadb = mariadb();
    List<Row> kept = new ArrayList<>();
    List<Future<SqlResult<List<Row>>>> read = new ArrayList<>(1);
    long now = System.currentTimeMillis();
    // MariaDB only: that the clear also clears the warnings is measured on MariaDB 10.11, not MySQL
    boolean neutral = mariadb && neutralReads.neutral(guarded, now);
    List<String> lookUps = neutral || !mariadb ? List.of() : neutralReads.toLookUp(guarded, now);
    SqlConnection conn = lease.conn();
    Object physical = physical(conn);
    CommandGroup.send(conn, flight -> {
      // a read of anything but base tables may run code that reads them, whatever its text says
      boolean mayRead = !neutral || SessionNeutralReads.readsDiagnostics(guarded);
      Future<?> front = mayRead && uncleared.contains(physical) ? clear(flight, conn) : null;
      Future<SqlResult<List<Row>>> own = flight.query(sql).collecting(Collector.<Row, List<Row>>of(() -> kept,
          (l, r) -> {
            if (l.size() < rows) {
              l.add(r);
            }
          }, (a, b) -> a)).execute();
      // without its clear, the statement may have read another call's diagnostics: no answer then
      read.add(front == null ? own
          : Future.join(front, own).transform(x -> front.failed() ? Future.failedFuture(front.cause()) : own));
      if (neutral) {
        // what it leaves is its row count and warnings only: cleared before a statement that reads them
        uncleared.add(physical);
        lease.bare().reset = Future.succeededFuture();
      } else {
        lease.bare().reset = resetSession(flight, conn, mariadb, lookUps);
      }
    });
    return read.get(0).map(r -> new Rows(r.columnDescriptors(), kept));
  }

  /** What a look-up's row says: 1 when every relation by that name is a base table. */
  private static boolean standing(RowSet<Row> rs) {
    return rs.iterator().next().getValue(0) instanceof Number n && n.intValue() == 1;
  }

  @Override
  protected SessionNeutralReads standings() {
    return neutralReads;
  }

  /** The side connections open on the same database, which an unqualified name's look-up reads. */
  @Override
  protected Future<Boolean> lookUpStanding(String key) {
    return onSide(c -> c.query(SessionNeutralReads.lookUp(key)).execute()).map(MySqlAdapter::standing);
  }

  /** The text protocol: with multi-statements off the server refuses a second statement (1064). */
  @Override
  public Future<RowSet<Row>> single(SqlConnection conn, String sql) {
    return conn.query(sql).execute();
  }

  @Override
  protected Future<Lease> openSession(SqlConnection conn, long timeoutMs, boolean write) {
    // Pipelined in one write (multi-statements are off): this call's deadline, no row cap (a
    // cursor stops at maxRows itself), and the transaction. The session is READ ONLY; a gated
    // write overrides it for its one transaction. The backend id is known since connect unless a
    // reset failed.
    Object physical = physical(conn);
    Long known = backendIds.get(physical);
    Future<Long> id = known != null ? Future.succeededFuture(known) : readBackendId(conn);
    // what runs in this lease is not analysed for what it reads
    Future<?> front = uncleared.contains(physical) ? clear(conn, conn) : Future.succeededFuture();
    Future<?> timeout = conn.query("SET SESSION " + deadline(mariadb(), timeoutMs)
        + ", sql_select_limit = DEFAULT").execute();
    Future<?> begin = conn.query(write ? "START TRANSACTION READ WRITE" : "START TRANSACTION READ ONLY").execute();
    // the transaction is open when the lease is handed out
    return Future.all(id, front, timeout, begin).map(x -> new Lease(conn, id.result(), Future.succeededFuture()));
  }

  @Override
  protected Future<ServerInfo> detect(SqlConnection conn) {
    return conn.query("SELECT VERSION()").execute().map(rs -> {
      String v = rs.iterator().next().getString(0);
      return new ServerInfo(v, v.toLowerCase(Locale.ROOT).contains("mariadb") ? "mariadb" : "mysql");
    });
  }

  @Override
  public Future<Void> cancel(Lease lease) {
    return onSide(conn -> conn.query("KILL QUERY " + lease.backendId()).execute()).mapEmpty();
  }

  /** The driver's connection under the pool's per-lease wrapper: the same for every lease of it. */
  private static Object physical(SqlConnection conn) {
    Connection c = ((SqlConnectionInternal) conn).unwrap();
    while (c.unwrap() != c) {
      c = c.unwrap();
    }
    return c;
  }

  private static Future<Long> readBackendId(SqlConnection conn) {
    return conn.query("SELECT CONNECTION_ID()").execute().map(rs -> rs.iterator().next().getLong(0));
  }

  /** MariaDB or MySQL, from the version the server announced in its handshake. */
  private static boolean isMariaDb(SqlConnection conn) {
    return conn.databaseMetadata().fullVersion().toLowerCase(Locale.ROOT).contains("mariadb");
  }

  private boolean mariadb() {
    return serverInfo != null && "mariadb".equals(serverInfo.flavour());
  }

  /** MariaDB opens no cursor for EXPLAIN, DESCRIBE and SHOW (error 1421); they are read whole. */
  @Override
  public boolean cursorReadable(StatementKind kind) {
    return kind == StatementKind.QUERY;
  }

  @Override
  public String explainSql(String sql, boolean analyze) {
    if (!analyze) {
      return "EXPLAIN FORMAT=JSON " + sql;
    }
    return mariadb() ? "ANALYZE FORMAT=JSON " + sql : "EXPLAIN ANALYZE " + sql;
  }

  @Override
  public JsonObject renderPlan(List<Row> rows) {
    String text = String.valueOf(rows.get(0).getValue(0));
    JsonObject doc;
    try {
      doc = new JsonObject(text);
    } catch (DecodeException notJson) {
      // MySQL's EXPLAIN ANALYZE prints a tree, not JSON.
      return new JsonObject().put("format", "mysql-tree").put("plan", new JsonArray(List.of(text.split("\n"))));
    }
    List<String> lines = new ArrayList<>();
    long[] estimate = {0};
    walk(doc, 0, lines, estimate);
    JsonObject out = new JsonObject()
        .put("format", mariadb() ? "mariadb-json" : "mysql-json")
        .put("plan", new JsonArray(lines))
        .put("planJson", doc)
        .put("estimatedRows", estimate[0]);
    JsonObject block = doc.getJsonObject("query_block");
    JsonObject cost = block == null ? null : block.getJsonObject("cost_info");
    if (cost != null && cost.getValue("query_cost") != null) {
      out.put("estimatedCost", Double.parseDouble(String.valueOf(cost.getValue("query_cost"))));
    } else if (block != null && block.getValue("cost") instanceof Number n) {
      out.put("estimatedCost", n.doubleValue());
    }
    return out;
  }

  /** One line per table access, indented by nesting; the estimate is the largest table estimate. */
  private static void walk(Object node, int depth, List<String> lines, long[] estimate) {
    if (node instanceof JsonArray a) {
      a.forEach(o -> walk(o, depth, lines, estimate));
      return;
    }
    if (!(node instanceof JsonObject o)) {
      return;
    }
    JsonObject table = o.getJsonObject("table");
    if (table != null) {
      long rows = number(table.getValue("rows", table.getValue("rows_examined_per_scan")));
      estimate[0] = Math.max(estimate[0], rows);
      StringBuilder b = new StringBuilder("  ".repeat(depth)).append("table ").append(table.getString("table_name"))
          .append(" access=").append(table.getString("access_type")).append(" rows=").append(rows);
      if (table.getValue("key") != null) b.append(" key=").append(table.getValue("key"));
      if (table.getValue("r_rows") != null) b.append(" actual_rows=").append(table.getValue("r_rows"));
      if (table.getValue("attached_condition") != null) b.append(" filter: ").append(table.getValue("attached_condition"));
      lines.add(b.toString());
    }
    if (o.containsKey("message") && o.getValue("message") instanceof String m) {
      lines.add("  ".repeat(depth) + m);
    }
    for (String k : o.fieldNames()) {
      if (!k.equals("table")) {
        Object child = o.getValue(k);
        if (child instanceof JsonObject || child instanceof JsonArray) {
          walk(child, k.equals("query_block") ? depth : depth + 1, lines, estimate);
        }
      }
    }
  }

  private static long number(Object v) {
    if (v instanceof Number n) return n.longValue();
    try {
      return v == null ? 0 : (long) Double.parseDouble(v.toString());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public Object cell(Row row, int index, ColumnDescriptor column) {
    Object v = row.getValue(index);
    if (v instanceof Geometry g) {
      return GeometryText.of(g);
    }
    String type = column.typeName();
    if ("TIMESTAMP".equals(type)) {
      // TIMESTAMP is zone-aware and the session runs in UTC: report it like a PG timestamptz.
      return ValueFormat.utcTimestamp(v);
    }
    if (v instanceof Number n && "INT8".equals(type) && hints.booleans.contains(column.name())) {
      return n.intValue() != 0;
    }
    if (v instanceof String s && hints.jsonText.contains(column.name())) {
      try {
        return ValueFormat.format(Json.decodeValue(s));
      } catch (DecodeException notJson) {
        return ValueFormat.format(s);
      }
    }
    return ValueFormat.format(v);
  }

  /** The client's type names (INT16, VARSTRING...) translated back to MySQL's own. */
  @Override
  public String typeName(ColumnDescriptor column) {
    String t = column.typeName();
    if (t == null) {
      return String.valueOf(column.jdbcType()).toLowerCase(Locale.ROOT);
    }
    String name = switch (t) {
      case "INT8" -> "tinyint";
      case "INT16" -> "smallint";
      case "INT24" -> "mediumint";
      case "INT32" -> "int";
      case "INT64" -> "bigint";
      case "U_INT8" -> "tinyint unsigned";
      case "U_INT16" -> "smallint unsigned";
      case "U_INT24" -> "mediumint unsigned";
      case "U_INT32" -> "int unsigned";
      case "U_INT64" -> "bigint unsigned";
      case "NUMERIC" -> "decimal";
      case "STRING" -> "char";
      case "VARSTRING" -> "varchar";
      case "TINY_TEXT" -> "tinytext";
      case "MEDIUM_TEXT" -> "mediumtext";
      case "LONG_TEXT" -> "longtext";
      case "TINY_BLOB" -> "tinyblob";
      case "MEDIUM_BLOB" -> "mediumblob";
      case "LONG_BLOB" -> "longblob";
      default -> t.toLowerCase(Locale.ROOT);
    };
    return hints.booleans.contains(column.name()) && t.equals("INT8") ? "boolean"
        : hints.jsonText.contains(column.name()) ? "json" : name;
  }

  @Override
  public boolean isServerDeadline(Throwable failure, long elapsedMs, long timeoutMs) {
    if (!(failure instanceof MySQLException me)) {
      return false;
    }
    // MariaDB: a cursor statement stopped by max_statement_time does not report 1969; the first
    // fetch then fails with 1421 "has no open cursor". Measured at ~1.0 s for a 1 s deadline.
    return me.getErrorCode() == 1969 || me.getErrorCode() == 3024
        || me.getErrorCode() == 1421 && elapsedMs >= timeoutMs * 9 / 10;
  }

  @Override
  public SqlError mapError(Throwable failure) {
    if (!(failure instanceof MySQLException me)) {
      SqlError common = commonError(failure);
      return common != null ? common : new SqlError(ErrorType.INTERNAL_ERROR, firstLine(String.valueOf(failure.getMessage())));
    }
    int code = me.getErrorCode();
    String msg = message(me);
    ErrorType type = switch (code) {
      case 1064, 1149 -> ErrorType.SYNTAX_ERROR;
      case 1146 -> ErrorType.TABLE_NOT_FOUND;
      case 1054 -> ErrorType.COLUMN_NOT_FOUND;
      case 1142, 1143, 1044, 1045, 1227 -> ErrorType.PERMISSION_DENIED;
      case 1969, 3024 -> ErrorType.TIMEOUT;
      case 1792 -> ErrorType.VALIDATION_FAILED;
      case 2002, 2003, 2006, 2013, 1040, 1053 -> ErrorType.CONNECTION_ERROR;
      default -> ErrorType.QUERY_ERROR;
    };
    SqlError e = new SqlError(type, msg).with("sql_state", me.getSqlState()).with("error_code", code);
    if (type == ErrorType.TABLE_NOT_FOUND) {
      e.with("name", SqlExecutorVerticle.nameIn(msg, TABLE));
    } else if (type == ErrorType.COLUMN_NOT_FOUND) {
      String col = SqlExecutorVerticle.nameIn(msg, COLUMN);
      e.with("name", col == null ? null : col.substring(col.lastIndexOf('.') + 1));
    }
    return e;
  }

  /** The server's text: the client renders it as {@code {errorMessage=..., errorCode=..., sqlState=...}}. */
  static String message(MySQLException me) {
    String raw = String.valueOf(me.getMessage());
    Matcher m = RAW_MESSAGE.matcher(raw);
    return firstLine(m.matches() ? m.group(1) : raw);
  }

  @Override
  public Future<List<String>> knownNames(boolean columns, String qualifier) {
    String sql = columns
        ? "SELECT DISTINCT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() LIMIT 20000"
        : "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) LIMIT 20000";
    return onSide(conn -> (columns ? conn.query(sql).execute() : conn.preparedQuery(sql).execute(Tuple.of(qualifier)))
        .map(rs -> {
          List<String> names = new ArrayList<>();
          rs.forEach(r -> names.add(String.valueOf(r.getValue(0))));
          return names;
        }));
  }
}
