package dev.sluice.loadtest;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.demo.DemoDataset;
import dev.sluice.engine.Engine;
import dev.sluice.engine.postgres.PostgresEngine;
import dev.sluice.engine.sqlite.SqliteEngine;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Fair sharing of one connection under load, printed as figures (not a test): heavy agents loop a
 * ~0.7 s self-join on order_items while a light agent sends {@code SELECT 1} every half second;
 * then a principal flooding with 50 sessions against a calm one with 8 and twice its weight. Each
 * scenario runs on connections to the same database that differ only in their {@code queue}
 * (fifo; fair; fair with one slot reserved for short calls), alternated round by round so all see
 * the same machine drift. Calls go through
 * the executor verticle over the event bus, as the gateway sends them, with a principal and a
 * session each.
 *
 * <pre>
 * java -cp "$(loadtest_classpath)" dev.sluice.loadtest.FairShareBench [sqlite,postgres] [seconds=20] [rounds=2]
 * </pre>
 *
 * PostgreSQL: the fixture schema {@code sluice_fair_bench} in database {@code test} on
 * 127.0.0.1:5432 (user postgres), an order_items table like the demo's, made on first use.
 */
public final class FairShareBench {

  private static final int POOL = 4;
  private static final int HEAVY_AGENTS = 16;
  private static final long LIGHT_PERIOD_MS = 500;
  private static final int FLOOD_SESSIONS = 50;
  private static final int CALM_SESSIONS = 8;
  private static final int CALM_WEIGHT = 2;
  private static final double TARGET_HEAVY_MS = 700;
  private static final List<String> ORDERS = List.of("fifo", "fair", "reserve");
  private static final String PG_URL = "postgresql://postgres@127.0.0.1:5432/test";
  private static final String PG_SCHEMA = "sluice_fair_bench";

  private final Vertx vertx;
  private final Driver driver;
  private final String table;
  private String heavySql;
  private int heavyBound;
  private double heavyAloneMs;

  private FairShareBench(Vertx vertx, Driver driver, String table) {
    this.vertx = vertx;
    this.driver = driver;
    this.table = table;
  }

  public static void main(String[] args) throws Exception {
    List<String> engines = List.of((args.length > 0 ? args[0] : "sqlite,postgres").split(","));
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Vertx vertx = Vertx.vertx();
    Path dir = Files.createTempDirectory("sluice-fair-bench");
    try {
      for (String engine : engines) {
        FairShareBench bench;
        List<ConnectionConfig> cfgs;
        Engine e;
        if (engine.equals("sqlite")) {
          Path db = dir.resolve("demo.sqlite");
          DemoDataset.writeSqlite(db);
          bench = new FairShareBench(vertx, Driver.SQLITE, "order_items");
          cfgs = connections(id -> new ConnectionConfig(id, Driver.SQLITE, null, db.toString(), null, null, null,
              POOL, 1_024, 60_000, 100, 10_000));
          e = SqliteEngine.INSTANCE;
        } else {
          pgFixture(vertx);
          bench = new FairShareBench(vertx, Driver.POSTGRES, PG_SCHEMA + ".order_items");
          cfgs = connections(id -> new ConnectionConfig(id, Driver.POSTGRES, PG_URL, null, null, null, null,
              POOL, 1_024, 60_000, 100, 10_000));
          e = PostgresEngine.INSTANCE;
        }
        String deployment = vertx.deployVerticle(new SqlExecutorVerticle(e, cfgs)).await(60, TimeUnit.SECONDS);
        try {
          bench.run(seconds, rounds);
        } finally {
          vertx.undeploy(deployment).await(60, TimeUnit.SECONDS);
        }
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

  private interface Connection {
    ConnectionConfig make(String id);
  }

  /** fifo and fair on the same database; the weights apply to the second scenario. */
  private static List<ConnectionConfig> connections(Connection c) {
    QueuePolicy fair = QueuePolicy.DEFAULT.withWeights(Map.of("calm", CALM_WEIGHT));
    return List.of(c.make("fifo").withQueue(fair.withOrder(QueuePolicy.Order.FIFO)), c.make("fair").withQueue(fair),
        c.make("reserve").withQueue(fair.withShortReserve(1)));
  }

  private void run(int seconds, int rounds) throws Exception {
    calibrate();
    System.out.printf("%n== %s: pool %d, %d s per run, %d rounds of fifo/fair alternated%n", driver.wireName(),
        POOL, seconds, rounds);
    System.out.printf("heavy statement (%.0f ms alone, measured): %s%n%n", heavyAloneMs, heavySql);
    for (String id : ORDERS) {
      for (int i = 0; i < 3; i++) {
        call(id, "warm", "warm", heavySql).await(120, TimeUnit.SECONDS);
        call(id, "warm", "warm", "SELECT 1").await(30, TimeUnit.SECONDS);
      }
    }
    System.out.printf("A. %d heavy agents + 1 light agent (SELECT 1 every %d ms), one principal%n", HEAVY_AGENTS,
        LIGHT_PERIOD_MS);
    System.out.printf("%-6s %-8s %7s %10s %10s %10s %12s %12s %11s %7s%n", "round", "queue", "light n",
        "wait p50", "wait p99", "wait max", "latency p50", "latency p99", "heavy/s", "errors");
    Map<String, List<double[]>> a = new LinkedHashMap<>();
    for (int r = 1; r <= rounds; r++) {
      for (String id : ORDERS) {
        double[] row = heavyAndLight(id, seconds, r);
        a.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
      }
    }
    double fifoHeavy = mean(a.get("fifo"), 0);
    for (String id : List.of("fair", "reserve")) {
      System.out.printf("%s: heavy throughput / fifo %.3f (%.2f vs %.2f calls/s); light wait p50 %.0f ms, worst %.0f ms"
          + " (means over %d rounds)%n", id, mean(a.get(id), 0) / fifoHeavy, mean(a.get(id), 0), fifoHeavy,
          mean(a.get(id), 1), mean(a.get(id), 2), rounds);
    }
    System.out.printf("fifo: light wait p50 %.0f ms, worst %.0f ms%n%n", mean(a.get("fifo"), 1), mean(a.get("fifo"), 2));

    System.out.printf("B. principal 'flood' (%d sessions, weight 1) vs 'calm' (%d sessions, weight %d),"
        + " the heavy statement at a quarter of its size%n", FLOOD_SESSIONS, CALM_SESSIONS, CALM_WEIGHT);
    System.out.printf("%-6s %-8s %10s %10s %12s %12s%n", "round", "queue", "calm calls", "flood calls",
        "calm share", "weight share");
    for (int r = 1; r <= rounds; r++) {
      for (String id : List.of("fifo", "fair")) {
        twoPrincipals(id, seconds, r);
      }
    }
  }

  /** Finds the row bound that makes the self-join take about {@link #TARGET_HEAVY_MS} alone. */
  private void calibrate() throws Exception {
    int bound = 2_000;
    for (int i = 0; i < 6; i++) {
      String sql = heavy(bound);
      call("fair", "warm", "warm", sql).await(120, TimeUnit.SECONDS);
      long t = System.nanoTime();
      call("fair", "warm", "warm", sql).await(120, TimeUnit.SECONDS);
      double ms = (System.nanoTime() - t) / 1e6;
      heavyAloneMs = ms;
      if (Math.abs(ms - TARGET_HEAVY_MS) < TARGET_HEAVY_MS * 0.15) {
        break;
      }
      bound = (int) Math.max(50, Math.min(60_000, bound * TARGET_HEAVY_MS / Math.max(1, ms)));
    }
    heavyBound = bound;
    heavySql = heavy(bound);
  }

  private String heavy(int bound) {
    return "SELECT count(*) AS pairs, sum(a.quantity * b.unit_price) AS revenue FROM " + table + " a JOIN " + table
        + " b ON b.product_id = a.product_id WHERE a.id <= " + bound;
  }

  private double[] heavyAndLight(String id, int seconds, int round) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    AtomicLong heavyCalls = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    List<Future<Void>> agents = new ArrayList<>();
    for (int i = 0; i < HEAVY_AGENTS; i++) {
      String session = "heavy-" + i;
      agents.add(loop(() -> call(id, "default", session, heavySql)
          .onSuccess(r -> {
            if (System.nanoTime() <= end) {
              heavyCalls.incrementAndGet();
            }
          }).onFailure(x -> errors.incrementAndGet()), end, 0));
    }
    Histogram wait = new Histogram(TimeUnit.MINUTES.toMillis(2), 3);
    Histogram latency = new Histogram(TimeUnit.MINUTES.toMillis(2), 3);
    agents.add(loop(() -> {
      long t = System.nanoTime();
      return call(id, "default", "light", "SELECT 1").onSuccess(r -> {
        wait.recordValue(r.getLong("queuedMs"));
        latency.recordValue(Math.max(0, (System.nanoTime() - t) / 1_000_000));
      }).onFailure(x -> errors.incrementAndGet());
    }, end, LIGHT_PERIOD_MS));
    Future.join(agents).await(seconds + 120, TimeUnit.SECONDS);
    double perSecond = heavyCalls.get() / (double) seconds;
    System.out.printf("%-6d %-8s %7d %10d %10d %10d %12d %12d %11.2f %7d%n", round, id, wait.getTotalCount(),
        wait.getValueAtPercentile(50), wait.getValueAtPercentile(99), wait.getMaxValue(),
        latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), perSecond, errors.get());
    return new double[] {perSecond, wait.getValueAtPercentile(50), wait.getMaxValue()};
  }

  private void twoPrincipals(String id, int seconds, int round) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    String medium = heavy(Math.max(1, heavyBound / 4));
    AtomicLong calm = new AtomicLong();
    AtomicLong flood = new AtomicLong();
    List<Future<Void>> agents = new ArrayList<>();
    for (int i = 0; i < FLOOD_SESSIONS; i++) {
      String session = "flood-" + i;
      agents.add(loop(() -> call(id, "flood", session, medium).onSuccess(r -> count(flood, end)), end, 0));
    }
    for (int i = 0; i < CALM_SESSIONS; i++) {
      String session = "calm-" + i;
      agents.add(loop(() -> call(id, "calm", session, medium).onSuccess(r -> count(calm, end)), end, 0));
    }
    Future.join(agents).await(seconds + 120, TimeUnit.SECONDS);
    double share = calm.get() / (double) Math.max(1, calm.get() + flood.get());
    System.out.printf("%-6d %-8s %10d %10d %11.1f%% %11.1f%%%n", round, id, calm.get(), flood.get(), 100 * share,
        100.0 * CALM_WEIGHT / (CALM_WEIGHT + 1));
  }

  /** Counts a call that ended inside the measured window (calls still running at its end finish uncounted). */
  private static void count(AtomicLong n, long endNanos) {
    if (System.nanoTime() <= endNanos) {
      n.incrementAndGet();
    }
  }

  private interface Step {
    Future<?> call();
  }

  /** Calls {@code step} until {@code endNanos}, each call after the previous one ended (and {@code periodMs}). */
  private Future<Void> loop(Step step, long endNanos, long periodMs) {
    Promise<Void> done = Promise.promise();
    next(step, endNanos, periodMs, done);
    return done.future();
  }

  private void next(Step step, long endNanos, long periodMs, Promise<Void> done) {
    if (System.nanoTime() >= endNanos) {
      done.tryComplete();
      return;
    }
    long started = System.nanoTime();
    step.call().onComplete(ar -> {
      long rest = periodMs - (System.nanoTime() - started) / 1_000_000;
      if (rest > 0) {
        vertx.setTimer(rest, t -> next(step, endNanos, periodMs, done));
      } else {
        next(step, endNanos, periodMs, done);
      }
    });
  }

  private Future<JsonObject> call(String connectionId, String principal, String session, String sql) {
    JsonObject req = SqlBus.queryRequest(connectionId, UUID.randomUUID().toString(), sql, 10)
        .put("principal", principal).put("sessionId", session);
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver), req,
        new DeliveryOptions().setSendTimeout(120_000)).map(m -> m.body())
        .recover(err -> Future.failedFuture(SqlError.from(err)));
  }

  private static double mean(List<double[]> rows, int column) {
    return rows.stream().mapToDouble(r -> r[column]).average().orElse(0);
  }

  /** The demo's order_items shape in its own schema: 59,828 lines over 300 products, skewed like the demo. */
  private static void pgFixture(Vertx vertx) throws Exception {
    Pool admin = PgBuilder.pool().with(new PoolOptions().setMaxSize(1)).connectingTo(PG_URL).using(vertx).build();
    try {
      boolean present = admin.query("SELECT count(*) FROM pg_tables WHERE schemaname = '" + PG_SCHEMA
          + "' AND tablename = 'order_items'").execute().await(30, TimeUnit.SECONDS).iterator().next().getLong(0) > 0;
      if (!present) {
        for (String sql : List.of("CREATE SCHEMA IF NOT EXISTS " + PG_SCHEMA,
            "CREATE TABLE " + PG_SCHEMA + ".order_items (id integer PRIMARY KEY, order_id integer NOT NULL,"
                + " product_id integer NOT NULL, quantity integer NOT NULL, unit_price numeric(10,2) NOT NULL)",
            // popular products first, as in the demo: product = 1 + floor(300 * u^2)
            "INSERT INTO " + PG_SCHEMA + ".order_items SELECT g, 1 + g / 3, 1 + floor(300 * power(random(), 2))::int,"
                + " 1 + floor(random() * 5)::int, round((5 + random() * 200)::numeric, 2)"
                + " FROM generate_series(1, 59828) g",
            "CREATE INDEX ON " + PG_SCHEMA + ".order_items (product_id)",
            "ANALYZE " + PG_SCHEMA + ".order_items")) {
          admin.query(sql).execute().await(120, TimeUnit.SECONDS);
        }
      }
    } finally {
      admin.close().await(10, TimeUnit.SECONDS);
    }
  }
}
