package dev.sluice.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.sql.Dialect;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Loads the demo into a reactive-pool engine and checks it against the generator. */
final class DemoEngineCheck {

  private final Pool pool;
  private final DemoSql sql;

  DemoEngineCheck(Pool pool, Dialect dialect, String namespace) {
    this.pool = pool;
    this.sql = new DemoSql(dialect, namespace);
  }

  /** Runs the load, prints and returns its duration in ms. */
  long timedLoad(String engine, Supplier<Future<Void>> load) throws Exception {
    long t0 = System.nanoTime();
    await(load.get());
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.printf("demo %s load: %d ms%n", engine, ms);
    return ms;
  }

  void assertSameDataAsSqliteAndGenerator(Map<String, String> sqliteChecksums) throws Exception {
    Map<String, String> sums = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (DemoTable t : DemoSchema.TABLES) {
      RowSet<Row> rows = await(pool.query(sql.selectAll(t)).execute());
      DemoChecksum sum = new DemoChecksum(t);
      int n = t.columns().size();
      for (Row row : rows) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
          values[i] = row.getValue(i);
        }
        sum.add(values);
      }
      sums.put(t.name(), sum.hex());
      counts.put(t.name(), (int) sum.rows());
    }
    assertEquals(DemoDataset.expectedRowCounts(), counts);
    assertEquals(sqliteChecksums, sums);
  }

  void assertIntegrity() throws Exception {
    for (Map.Entry<String, String> q : DemoIntegrity.violationQueries(sql).entrySet()) {
      assertEquals(0L, count(q.getValue(), Tuple.tuple()), q.getKey());
    }
  }

  long count(String query, Tuple args) throws Exception {
    Row row = await(pool.preparedQuery(query).execute(args)).iterator().next();
    return ((Number) row.getValue(0)).longValue();
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.await(120, TimeUnit.SECONDS);
  }

  static int columnCount() {
    return DemoSchema.TABLES.stream().mapToInt(t -> t.columns().size()).sum();
  }

  static long foreignKeyCount() {
    return DemoSchema.TABLES.stream()
        .flatMap(t -> t.columns().stream())
        .filter(c -> c.references() != null)
        .count();
  }
}
