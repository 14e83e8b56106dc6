package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The baseline: the scenarios' SQL straight through the reactive Vert.x PG or MySQL pool at the
 * same concurrency, with no MCP, JSON-RPC, SSE or gateway in between.
 */
public final class DirectRun {

  private DirectRun() {}

  static Pool pool(Vertx vertx, String url, int size) {
    PoolOptions po = new PoolOptions().setMaxSize(size).setMaxWaitQueueSize(-1);
    if (url.startsWith("mysql://")) {
      return MySQLBuilder.pool().with(po).connectingTo(MySQLConnectOptions.fromUri(url)).using(vertx).build();
    }
    return PgBuilder.pool().with(po).connectingTo(PgConnectOptions.fromUri(url)).using(vertx).build();
  }

  /** Runs {@code agents} concurrent loops of the mix's SQL; returns the result JSON (mode "direct"). */
  public static JsonObject run(Vertx vertx, LoadOptions o, int agents, Mix mix) throws Exception {
    // same concurrency as the agents, but never more server connections than a stock engine allows
    int size = o.directPoolSize > 0 ? o.directPoolSize : Math.min(agents, 64);
    Pool pool = pool(vertx, o.direct, size);
    long origin = System.nanoTime();
    long deadline = origin + Math.round(o.durationSeconds * 1e9);
    Stats stats = new Stats(origin);
    AtomicLong budget = new AtomicLong(o.maxCalls);
    long rampMs = Math.round(o.rampUpSeconds * 1000);
    try {
      AgentFleet.run(vertx, agents, o.eventLoops, i -> {
        Promise<Void> done = Promise.promise();
        long delay = agents == 1 ? 0 : rampMs * i / agents;
        vertx.setTimer(Math.max(1, delay), t -> step(vertx, pool, mix, stats, budget, deadline, o.thinkTimeMs, done));
        return done.future();
      }, o.durationSeconds + o.callTimeoutMs / 1000.0 + 30);
    } finally {
      pool.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    double elapsed = (System.nanoTime() - origin) / 1e9;
    return stats.toJson(elapsed).put("mode", "direct").put("agents", agents).put("poolSize", size)
        .put("mix", mix.toString());
  }

  private static void step(Vertx vertx, Pool pool, Mix mix, Stats stats, AtomicLong budget, long deadline,
      long thinkMs, Promise<Void> done) {
    if (System.nanoTime() >= deadline || budget.getAndDecrement() <= 0) {
      done.tryComplete();
      return;
    }
    Scenario s = mix.pick();
    long start = System.nanoTime();
    Future<?> q = pool.query(s.directSql()).execute();
    q.onComplete(ar -> {
      long now = System.nanoTime();
      stats.record(ar.succeeded()
          ? new CallOutcome(s.name(), now - start, -1, 0, CallOutcome.Kind.OK, null)
          : CallOutcome.unexpected(s.name(), now - start, "sql_" + ar.cause().getClass().getSimpleName()), now);
      if (thinkMs > 0) {
        vertx.setTimer(thinkMs, t -> step(vertx, pool, mix, stats, budget, deadline, thinkMs, done));
      } else {
        vertx.runOnContext(v -> step(vertx, pool, mix, stats, budget, deadline, thinkMs, done));
      }
    });
  }
}
