package dev.sluice.demo;

import dev.sluice.sql.Dialect;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Writes the demo dataset from the command line, for benchmarks and manual use:
 *
 * <pre>
 * java -cp ... dev.sluice.demo.DemoDataMain sqlite &lt;file&gt;
 * java -cp ... dev.sluice.demo.DemoDataMain postgres postgresql://user@host:5432/db &lt;schema&gt;
 * java -cp ... dev.sluice.demo.DemoDataMain mysql mysql://user@host:3306/db &lt;database&gt;
 * </pre>
 *
 * Prints the row count per table and the elapsed time of generation and writing.
 */
public final class DemoDataMain {

  private DemoDataMain() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try {
      run(args, out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println("usage: DemoDataMain sqlite <file> | postgres <url> <schema> | mysql <url> <database>");
      System.exit(2);
    } catch (Exception e) {
      System.err.println("demo data generation failed: " + e);
      System.exit(1);
    }
  }

  /** Generates and writes the dataset as the arguments say, reporting to {@code out}. */
  static void run(String[] args, PrintStream out) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("missing target");
    }
    switch (args[0]) {
      case "sqlite", "postgres", "mysql" -> expect(args, args[0].equals("sqlite") ? 2 : 3);
      default -> throw new IllegalArgumentException("unknown target " + args[0]);
    }
    long t0 = System.nanoTime();
    DemoData data = DemoDataset.generate();
    long t1 = System.nanoTime();
    switch (args[0]) {
      case "sqlite" -> SqliteDemoWriter.write(data, Path.of(args[1]));
      case "postgres" -> withPool(args[1], url -> PgBuilder.pool().connectingTo(PgConnectOptions.fromUri(url)),
          pool -> new SqlClientDemoWriter(Dialect.POSTGRES, args[2]).load(pool, data));
      default -> withPool(args[1], url -> MySQLBuilder.pool().connectingTo(MySQLConnectOptions.fromUri(url)),
          pool -> new SqlClientDemoWriter(Dialect.MYSQL, args[2]).load(pool, data));
    }
    long t2 = System.nanoTime();
    for (Map.Entry<String, Integer> e : data.rowCounts().entrySet()) {
      out.printf("%-12s %,9d rows%n", e.getKey(), e.getValue());
    }
    out.printf("%-12s %,9d rows; generated in %d ms, written to %s in %d ms%n", "total", data.totalRows(),
        (t1 - t0) / 1_000_000, args[0], (t2 - t1) / 1_000_000);
  }

  private static void expect(String[] args, int n) {
    if (args.length != n) {
      throw new IllegalArgumentException(args[0] + " takes " + (n - 1) + " argument(s)");
    }
  }

  private static void withPool(
      String url,
      Function<String, io.vertx.sqlclient.ClientBuilder<Pool>> builder,
      Function<Pool, Future<Void>> load) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Pool pool = builder.apply(url).with(new PoolOptions().setMaxSize(1)).using(vertx).build();
      load.apply(pool).eventually(pool::close).await(10, TimeUnit.MINUTES);
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

}
