package dev.sluice.engine.sqlite;

import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.analysis.SqlLexer;
import dev.sluice.sql.analysis.Token;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs one job inside the worker process: streams rows up to maxRows, or explains. */
final class WorkerQuery {

  private static final Pattern NO_TABLE = Pattern.compile("no such table: ([\\w.\"`]+)");
  private static final Pattern NO_COLUMN = Pattern.compile("no such column: ([\\w.\"`]+)");
  private static final Pattern NEAR = Pattern.compile("near \"([^\"]*)\": syntax error");

  /**
   * Read statements kept prepared, by their text. Agents and dashboards repeat statements, and
   * preparing was a sixth of the worker's CPU on a small read (async-profiler, docs/performance.md).
   * Safe to reuse: the engine prepares a statement again by itself when the schema changed (its
   * columns follow, {@code WorkerQueryTest}), and closing a result resets its statement, so an
   * idle cached statement holds no lock.
   */
  static final int PREPARED = 32;

  private final Connection conn;
  private final Consumer<JsonObject> emit;
  private final Map<String, java.sql.PreparedStatement> prepared = new java.util.LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, java.sql.PreparedStatement> eldest) {
      if (size() <= PREPARED) {
        return false;
      }
      close(eldest.getValue());
      return true;
    }
  };

  WorkerQuery(Connection conn, Consumer<JsonObject> emit) {
    this.conn = conn;
    this.emit = emit;
  }

  /** The statement for {@code sql}, prepared once and kept ({@link #PREPARED}). */
  private java.sql.PreparedStatement prepared(String sql) throws SQLException {
    java.sql.PreparedStatement st = prepared.get(sql);
    if (st == null) {
      st = conn.prepareStatement(sql);
      prepared.put(sql, st);
    } else {
      st.clearParameters();
    }
    return st;
  }

  /** Drops a kept statement after a failure: it is prepared afresh next time. */
  private void forget(String sql) {
    java.sql.PreparedStatement st = prepared.remove(sql);
    if (st != null) {
      close(st);
    }
  }

  private static void close(java.sql.PreparedStatement st) {
    try {
      st.close();
    } catch (SQLException ignored) {
      // a statement that cannot close is gone with the connection anyway
    }
  }

  JsonObject run(JsonObject job) {
    String id = job.getString("id");
    String sql = job.getString("sql");
    String tail = secondStatement(sql);
    if (tail != null) {
      // sqlite3_prepare reads one statement and hands back the rest; the worker never runs the rest
      return WorkerProtocol.error(id, "validation_failed", "the SQLite worker runs one statement; found more "
          + "after the ';' at character " + tail).put("rule", "multiple_statements");
    }
    try {
      if ("checksum".equals(job.getString("mode"))) {
        return checksum(id, sql, job.getInteger("floatDigits", 12));
      }
      if ("write".equals(job.getString("mode"))) {
        return write(id, sql, job.getInteger("maxRows", 100));
      }
      return "explain".equals(job.getString("mode")) ? explain(id, sql)
          : query(id, sql, job.getInteger("maxRows", 1000), job.getJsonArray("params"));
    } catch (SQLException e) {
      return mapError(id, sql, e);
    }
  }

  /**
   * Where a second statement starts (1-based), or null: the text is lexed with SQLite's own rules,
   * and anything but trailing semicolons after the first one is refused.
   */
  static String secondStatement(String sql) {
    List<Token> tokens = SqlLexer.lex(SqliteDialect.LEX, sql == null ? "" : sql).tokens();
    int end = tokens.size();
    while (end > 0 && tokens.get(end - 1).isSymbol(';')) {
      end--;
    }
    for (int i = 0; i < end; i++) {
      if (tokens.get(i).isSymbol(';')) {
        return String.valueOf(tokens.get(i).start() + 1);
      }
    }
    return null;
  }

  /** The whole result hashed row by row (RowChecksum); nothing is kept but the sample. */
  private JsonObject checksum(String id, String sql, int floatDigits) throws SQLException {
    dev.sluice.sql.RowChecksum sum = new dev.sluice.sql.RowChecksum(floatDigits);
    // prepared statements only: Statement.execute also reads sqlite-jdbc's BACKUP/RESTORE commands
    try (java.sql.PreparedStatement st = conn.prepareStatement(sql)) {
      st.setFetchSize(1_000);
      try (ResultSet rs = st.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        JsonArray headers = new JsonArray();
        SqliteValues.Kind[] kinds = new SqliteValues.Kind[n];
        int[] scales = new int[n];
        for (int i = 1; i <= n; i++) {
          headers.add(md.getColumnLabel(i));
          String declared = md.getColumnTypeName(i);
          kinds[i - 1] = SqliteValues.kind(declared);
          scales[i - 1] = SqliteValues.scale(declared, md.getPrecision(i), md.getScale(i));
        }
        while (rs.next()) {
          JsonArray row = new JsonArray();
          for (int i = 1; i <= n; i++) {
            row.add(SqliteValues.read(rs, i, kinds[i - 1], scales[i - 1]));
          }
          sum.add(row);
        }
        return sum.toJson().put("id", id).put("type", "result").put("headers", headers);
      }
    }
  }

  /** One write in its own transaction: rows affected, RETURNING rows (capped), then commit. */
  private JsonObject write(String id, String sql, int maxRows) throws SQLException {
    try (java.sql.PreparedStatement st = conn.prepareStatement(sql)) {
      JsonArray headers = new JsonArray();
      JsonArray rows = new JsonArray();
      int affected;
      if (st.execute()) {
        try (ResultSet rs = st.getResultSet()) {
          int n = rs.getMetaData().getColumnCount();
          for (int i = 1; i <= n; i++) {
            headers.add(rs.getMetaData().getColumnLabel(i));
          }
          while (rs.next()) {
            if (rows.size() < maxRows) {
              JsonArray row = new JsonArray();
              for (int i = 1; i <= n; i++) {
                row.add(rs.getObject(i));
              }
              rows.add(row);
            }
          }
        }
        affected = Math.max(0, conn.createStatement().executeQuery("SELECT changes()").getInt(1));
      } else {
        affected = st.getUpdateCount();
      }
      conn.commit();
      return new JsonObject().put("id", id).put("type", "result").put("headers", headers)
          .put("headerTypes", new JsonArray()).put("rows", rows).put("rowCount", rows.size())
          .put("truncated", false).put("rowsAffected", Math.max(0, affected));
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    }
  }

  private JsonObject query(String id, String sql, int maxRows, JsonArray params) throws SQLException {
    java.sql.PreparedStatement st = prepared(sql);
    try {
      st.setFetchSize(Math.min(maxRows + 1, 1_000));
      if (params != null) {
        for (int i = 0; i < params.size(); i++) {
          st.setObject(i + 1, params.getValue(i));
        }
      }
      try (ResultSet rs = st.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        JsonArray headers = new JsonArray();
        JsonArray types = new JsonArray();
        SqliteValues.Kind[] kinds = new SqliteValues.Kind[n];
        int[] scales = new int[n];
        for (int i = 1; i <= n; i++) {
          headers.add(md.getColumnLabel(i));
          String declared = md.getColumnTypeName(i);
          types.add(declared == null || declared.isEmpty() ? "" : declared.toLowerCase(java.util.Locale.ROOT));
          kinds[i - 1] = SqliteValues.kind(declared);
          scales[i - 1] = SqliteValues.scale(declared, md.getPrecision(i), md.getScale(i));
        }
        JsonArray rows = new JsonArray();
        boolean truncated = false;
        while (rs.next()) {
          if (rows.size() == maxRows) {
            truncated = true;
            break;
          }
          JsonArray row = new JsonArray();
          for (int i = 1; i <= n; i++) {
            row.add(SqliteValues.read(rs, i, kinds[i - 1], scales[i - 1]));
          }
          rows.add(row);
          if (rows.size() % WorkerProtocol.PROGRESS_EVERY_ROWS == 0) {
            emit.accept(WorkerProtocol.progress(id, rows.size()));
          }
        }
        return new JsonObject().put("id", id).put("type", "result").put("headers", headers)
            .put("headerTypes", types).put("rows", rows).put("rowCount", rows.size()).put("truncated", truncated);
      }
    } catch (SQLException | RuntimeException e) {
      forget(sql);
      throw e;
    }
  }

  private JsonObject explain(String id, String sql) throws SQLException {
    Map<Integer, Integer> depth = new HashMap<>();
    JsonArray plan = new JsonArray();
    try (java.sql.PreparedStatement st = conn.prepareStatement("EXPLAIN QUERY PLAN " + sql);
        ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        int node = rs.getInt(1);
        int parent = rs.getInt(2);
        int d = depth.getOrDefault(parent, -1) + 1;
        depth.put(node, d);
        plan.add("  ".repeat(d) + rs.getString(4));
      }
    }
    return new JsonObject().put("id", id).put("type", "result").put("format", "sqlite-eqp").put("plan", plan);
  }

  private JsonObject mapError(String id, String sql, SQLException e) {
    String msg = e.getMessage() == null ? "SQLite error" : e.getMessage();
    // sqlite-jdbc wraps the engine message: "[SQLITE_ERROR] SQL error or missing database (no such table: x)"
    String engine = msg.contains("(") && msg.endsWith(")") ? msg.substring(msg.indexOf('(') + 1, msg.length() - 1) : msg;
    JsonObject err;
    Matcher m;
    if ((m = NO_TABLE.matcher(engine)).find()) {
      String name = unquote(m.group(1));
      err = WorkerProtocol.error(id, "table_not_found", engine).put("name", name)
          .put("suggestions", suggestions(NameSuggester.similar(name, tables()), "similar table name"));
    } else if ((m = NO_COLUMN.matcher(engine)).find()) {
      String name = unquote(m.group(1));
      String bare = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
      err = WorkerProtocol.error(id, "column_not_found", engine).put("name", name)
          .put("suggestions", suggestions(NameSuggester.similar(bare, columns()), "similar column name"));
    } else if ((m = NEAR.matcher(engine)).find() || engine.contains("syntax error") || engine.contains("incomplete input")) {
      err = WorkerProtocol.error(id, "syntax_error", engine);
      if (m.find(0) && !m.group(1).isEmpty()) {
        int at = sql.indexOf(m.group(1));
        if (at >= 0) {
          err.put("position", at + 1);
        }
      }
    } else if (msg.contains("SQLITE_READONLY") || engine.contains("readonly") || engine.contains("read-only")) {
      err = WorkerProtocol.error(id, "validation_failed", "the database is opened read-only: " + engine);
    } else {
      err = WorkerProtocol.error(id, "query_error", engine);
    }
    return err.put("sqlite_code", e.getErrorCode());
  }

  private static JsonArray suggestions(List<String> names, String reason) {
    JsonArray a = new JsonArray();
    names.forEach(n -> a.add(new JsonObject().put("correction", n).put("reason", reason)));
    return a;
  }

  private List<String> tables() {
    List<String> out = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%'")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException ignored) {
      // suggestions are best effort
    }
    return out;
  }

  private Set<String> columns() {
    Set<String> out = new LinkedHashSet<>();
    for (String t : tables()) {
      try (Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT name FROM pragma_table_info('" + t.replace("'", "''") + "')")) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      } catch (SQLException ignored) {
        // best effort
      }
    }
    return out;
  }

  private static String unquote(String s) {
    return s.replace("\"", "").replace("`", "");
  }
}
