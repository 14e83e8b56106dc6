package dev.sluice.demo;

import dev.sluice.sql.Dialect;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads the demo dataset through a reactive Vert.x SQL pool (PostgreSQL or MySQL/MariaDB). A
 * load replaces demo tables of an earlier load in the same schema/database.
 *
 * <p>Rows go in as multi-row INSERT statements sent with {@code executeBatch}: one round trip
 * carries {@link #ROWS_PER_STATEMENT} rows per statement times {@link #STATEMENTS_PER_BATCH}
 * statements, which keeps ~100k rows to a few seconds on both engines.
 */
final class SqlClientDemoWriter {

  static final int ROWS_PER_STATEMENT = 100;
  static final int STATEMENTS_PER_BATCH = 10;

  private final DemoSql sql;

  SqlClientDemoWriter(Dialect dialect, String namespace) {
    if (dialect == Dialect.SQLITE) {
      throw new IllegalArgumentException("SQLite is written by SqliteDemoWriter");
    }
    this.sql = new DemoSql(dialect, namespace);
  }

  Future<Void> load(Pool pool, DemoData data) {
    if (sql.dialect() == Dialect.POSTGRES) {
      // PostgreSQL DDL is transactional: the whole load is all-or-nothing
      return pool.withTransaction(conn -> run(conn, ddl()).compose(v -> insertAll(conn, data)));
    }
    // MySQL commits implicitly at each DDL statement, so only the inserts share a transaction
    return pool.withConnection(conn -> run(conn, ddl()))
        .compose(v -> pool.withTransaction(conn -> insertAll(conn, data)));
  }

  private List<String> ddl() {
    List<String> statements = new ArrayList<>();
    if (sql.dialect() == Dialect.POSTGRES) {
      // DROP TABLE IF EXISTS on a first load would log a notice per table
      statements.add("SET LOCAL client_min_messages = warning");
    }
    statements.addAll(sql.createNamespace());
    statements.addAll(sql.dropTables());
    for (DemoTable t : DemoSchema.TABLES) {
      statements.addAll(sql.createTable(t));
    }
    return statements;
  }

  private static Future<Void> run(SqlConnection conn, List<String> statements) {
    Future<Void> chain = Future.succeededFuture();
    for (String s : statements) {
      chain = chain.compose(v -> conn.query(s).execute().mapEmpty());
    }
    return chain;
  }

  private Future<Void> insertAll(SqlConnection conn, DemoData data) {
    Future<Void> chain = Future.succeededFuture();
    for (DemoTable t : DemoSchema.TABLES) {
      List<Object[]> rows = data.rows(t);
      int perBatch = ROWS_PER_STATEMENT * STATEMENTS_PER_BATCH;
      for (int from = 0; from < rows.size(); from += perBatch) {
        List<Object[]> slice = rows.subList(from, Math.min(rows.size(), from + perBatch));
        chain = chain.compose(v -> insertSlice(conn, t, slice));
      }
    }
    return chain;
  }

  /** Full statements in one batch, then the remainder (fewer rows) as one smaller statement. */
  private Future<Void> insertSlice(SqlConnection conn, DemoTable table, List<Object[]> rows) {
    int full = rows.size() / ROWS_PER_STATEMENT;
    Future<Void> done = Future.succeededFuture();
    if (full > 0) {
      List<Tuple> batch = new ArrayList<>(full);
      for (int s = 0; s < full; s++) {
        batch.add(tuple(table, rows.subList(s * ROWS_PER_STATEMENT, (s + 1) * ROWS_PER_STATEMENT)));
      }
      done = conn.preparedQuery(sql.insert(table, ROWS_PER_STATEMENT)).executeBatch(batch).mapEmpty();
    }
    List<Object[]> rest = rows.subList(full * ROWS_PER_STATEMENT, rows.size());
    if (rest.isEmpty()) {
      return done;
    }
    return done.compose(v -> conn.preparedQuery(sql.insert(table, rest.size())).execute(tuple(table, rest)).mapEmpty());
  }

  private Tuple tuple(DemoTable table, List<Object[]> rows) {
    List<DemoColumn> columns = table.columns();
    List<Object> values = new ArrayList<>(rows.size() * columns.size());
    for (Object[] row : rows) {
      for (int i = 0; i < columns.size(); i++) {
        values.add(value(columns.get(i).type(), row[i]));
      }
    }
    return Tuple.from(values);
  }

  private Object value(DemoType type, Object v) {
    // a String bound to a jsonb parameter would become a JSON string, not an object
    if (v != null && type == DemoType.JSON && sql.dialect() == Dialect.POSTGRES) {
      return new JsonObject((String) v);
    }
    return v;
  }
}
