package dev.sluice.loadtest;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.engine.sqlite.SqliteEngine;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.engine.sqlite.SqliteWorkerMain;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * What the SQLite process boundary costs, printed as figures (not a test): the same queries on the
 * demo dataset through a warm worker process (the executor verticle over the event bus, as the
 * gateway runs them) and through sqlite-jdbc in this JVM; the kill latency of a runaway past its
 * deadline; and a worker's cold start.
 *
 * <pre>
 * java -cp "$(loadtest_classpath)" dev.sluice.loadtest.SqliteBench [iterations] [warmup]
 * </pre>
 */
public final class SqliteBench {

  private static final long DEADLINE_MS = 1_000;
  private static final String RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
      + " SELECT count(*) FROM c";

  /** @param share fraction of the iterations this query runs (the aggregate takes ~40 ms a call) */
  private record Query(String name, double share, IntFunction<String> sql) {}

  private static final List<Query> QUERIES = List.of(
      new Query("point lookup", 1.0, i -> "SELECT * FROM customers WHERE id = " + (1 + i % 5_000)),
      new Query("aggregate join", 0.05, i -> "SELECT p.category, count(*) AS lines, sum(oi.quantity * oi.unit_price) AS revenue"
          + " FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category ORDER BY revenue DESC"),
      new Query("10k-row read", 0.02, i -> "SELECT * FROM web_events ORDER BY id LIMIT 10000"));

  private SqliteBench() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    Path dir = Files.createTempDirectory("sluice-sqlite-bench");
    Path db = dir.resolve("demo.sqlite");
    DemoDataset.writeSqlite(db);
    System.out.printf("SQLite bench on the demo dataset (%s), %d iterations after %d warm-up (the aggregate"
        + " join 5%%, the 10k-row read 2%% of that), one caller%n%n", db, iterations, warmup);
    Vertx vertx = Vertx.vertx();
    try {
      ConnectionConfig cfg = new ConnectionConfig("bench", Driver.SQLITE, null, db.toString(), null, null, null,
          1, 16, DEADLINE_MS, 1_000, 10_000);
      long t0 = System.nanoTime();
      vertx.deployVerticle(new SqlExecutorVerticle(SqliteEngine.INSTANCE, List.of(cfg))).await(60, TimeUnit.SECONDS);
      execute(vertx, "SELECT 1");
      System.out.printf("cold start: deploy + first answer %.0f ms%n%n", ms(System.nanoTime() - t0));

      System.out.printf("%-16s %-22s %10s %10s %10s%n", "query", "path", "p50 ms", "p99 ms", "max ms");
      try (Connection jdbc = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro")) {
        for (Query q : QUERIES) {
          int n = Math.max(20, (int) (iterations * q.share()));
          int w = Math.max(5, (int) (warmup * q.share()));
          Histogram worker = measure(n, w, i -> execute(vertx, q.sql().apply(i)));
          Histogram inProcess = measure(n, w, i -> jdbc(jdbc, q.sql().apply(i)));
          print(q.name(), "warm worker process", worker);
          print(q.name(), "in-process JDBC", inProcess);
          System.out.printf("%-16s %-22s %9.1fx %9.1fx%n", "", "ratio worker/JDBC",
              worker.getValueAtPercentile(50) / (double) Math.max(1, inProcess.getValueAtPercentile(50)),
              worker.getValueAtPercentile(99) / (double) Math.max(1, inProcess.getValueAtPercentile(99)));
        }
      }

      System.out.printf("%nkill past the deadline (%d ms, CPU-bound runaway), 5 runs:%n", DEADLINE_MS);
      for (int run = 0; run < 5; run++) {
        long pid = awaitWorker(db, -1);
        long start = System.nanoTime();
        String error = executeExpectingError(vertx, RUNAWAY);
        long replied = System.nanoTime();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          Thread.sleep(1);
        }
        long gone = System.nanoTime();
        awaitAnswer(vertx);
        long served = System.nanoTime();
        System.out.printf("  reply +%4.0f ms past the deadline (\"%s\"); worker %d gone +%3.0f ms;"
            + " next call answered by its replacement +%4.0f ms%n", ms(replied - start) - DEADLINE_MS, error, pid,
            ms(gone - start) - DEADLINE_MS, ms(served - start) - DEADLINE_MS);
      }
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  private interface Call {
    void run(int i) throws Exception;
  }

  private static Histogram measure(int iterations, int warmup, Call call) throws Exception {
    Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    for (int i = 0; i < warmup + iterations; i++) {
      long t = System.nanoTime();
      call.run(i);
      if (i >= warmup) {
        h.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t));
      }
    }
    return h;
  }

  private static void print(String query, String path, Histogram h) {
    System.out.printf("%-16s %-22s %10.2f %10.2f %10.2f%n", query, path, h.getValueAtPercentile(50) / 1000.0,
        h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
  }

  private static JsonObject execute(Vertx vertx, String sql) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.SQLITE),
        SqlBus.queryRequest("bench", null, sql, 10_000)).await(30, TimeUnit.SECONDS).body();
  }

  private static String executeExpectingError(Vertx vertx, String sql) throws Exception {
    try {
      execute(vertx, sql);
      return "no error";
    } catch (Exception e) {
      return SqlError.from(e instanceof ReplyException || e.getCause() == null ? e : e.getCause()).getMessage();
    }
  }

  /** Polls the pool until a ready worker is back (a call sent earlier would time out queued), then calls. */
  private static void awaitAnswer(Vertx vertx) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (vertx.eventBus().<JsonObject>request(SqlBus.info(Driver.SQLITE), new JsonObject().put("connectionId", "bench"))
        .await(10, TimeUnit.SECONDS).body().getJsonObject("pool").getInteger("size") == 0) {
      if (System.nanoTime() > until) {
        throw new IllegalStateException("no replacement worker within 30 s");
      }
      Thread.sleep(2);
    }
    // the pool may still count the killed worker until its exit is processed: retry once
    try {
      execute(vertx, "SELECT 1");
    } catch (ReplyException e) {
      execute(vertx, "SELECT 1");
    }
  }

  /** Same work as the worker does: run, read every column of every row. */
  private static void jdbc(Connection c, String sql) throws Exception {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int i = 1; i <= n; i++) {
          rs.getObject(i);
        }
      }
    }
  }

  /** The live worker process serving {@code db} other than {@code not}, waiting for it to appear. */
  private static long awaitWorker(Path db, long not) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      Optional<Long> pid = ProcessHandle.current().descendants()
          .filter(p -> p.pid() != not && p.isAlive()
              && p.info().commandLine().map(c -> c.contains(SqliteWorkerMain.MARKER + db)).orElse(false))
          .map(ProcessHandle::pid).findFirst();
      if (pid.isPresent()) {
        return pid.get();
      }
      Thread.sleep(1);
    }
    throw new IllegalStateException("no SQLite worker for " + db + " within 30 s");
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
