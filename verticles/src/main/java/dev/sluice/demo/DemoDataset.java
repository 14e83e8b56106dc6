package dev.sluice.demo;

import dev.sluice.sql.Dialect;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The built-in demo shop dataset (customers, products, orders, order_items, payments,
 * web_events; about 100k rows). Generation is deterministic: every call and every engine gets
 * the same values, see {@link DemoChecksum}.
 */
public final class DemoDataset {

  private DemoDataset() {}

  /** Generates the dataset in memory (a few hundred ms). */
  public static DemoData generate() {
    return DemoGenerator.generate();
  }

  /** Rows per table, in creation order. Guarded by tests: a change means a new {@link DemoSchema#VERSION}. */
  public static Map<String, Integer> expectedRowCounts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("customers", 5_000);
    counts.put("products", 300);
    counts.put("orders", 25_000);
    counts.put("order_items", 59_828);
    counts.put("payments", 24_835);
    counts.put("web_events", 20_000);
    return counts;
  }

  /** Generation takes a few hundred ms: too long for an event loop. */
  private static Future<DemoData> generateOffEventLoop() {
    Context context = Vertx.currentContext();
    return context == null
        ? Future.succeededFuture(generate())
        : context.executeBlocking(DemoGenerator::generate, false);
  }

  /**
   * Writes a fresh SQLite demo database to {@code file}, replacing it atomically: the data goes
   * to a temporary file in the same directory that is renamed into place when complete. Blocking.
   */
  public static void writeSqlite(Path file) throws IOException {
    SqliteDemoWriter.write(generate(), file);
  }

  /**
   * Returns {@code <stateDir>/demo.sqlite}, generating it only when it is missing or holds another
   * dataset version ({@code PRAGMA user_version}). Blocking; run it in executeBlocking.
   */
  public static Path ensureSqlite(Path stateDir) throws IOException {
    return SqliteDemoWriter.ensure(stateDir);
  }

  /**
   * Loads the dataset into PostgreSQL schema {@code schema} (created if missing; demo tables of an
   * earlier load are replaced), in one transaction.
   */
  public static Future<Void> loadPostgres(Pool pool, String schema) {
    SqlClientDemoWriter writer = new SqlClientDemoWriter(Dialect.POSTGRES, schema);
    return generateOffEventLoop().compose(data -> writer.load(pool, data));
  }

  /**
   * Loads the dataset into MySQL/MariaDB database {@code database} (created if missing; demo
   * tables of an earlier load are replaced). Tables are addressed as {@code database.table}, so
   * the pool may connect to any database.
   */
  public static Future<Void> loadMysql(Pool pool, String database) {
    SqlClientDemoWriter writer = new SqlClientDemoWriter(Dialect.MYSQL, database);
    return generateOffEventLoop().compose(data -> writer.load(pool, data));
  }
}
