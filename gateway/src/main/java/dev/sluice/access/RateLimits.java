package dev.sluice.access;

import dev.sluice.config.LimitsConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-principal budgets for SQL statements: queries per minute, rows per hour, statements in
 * flight.
 *
 * <p>On a single node they are token buckets: calls arrive on every event loop, so each
 * principal's budget is one small synchronized object, a check-and-take is atomic, and no race can
 * admit more than the budget.
 *
 * <p>In a cluster, queries per minute and rows per hour are counted cluster-wide in fixed windows
 * (the current minute, the current hour) held in {@link SharedWindows}: a principal gets its budget
 * once across all nodes, however its calls are spread. A fixed window lets a burst of up to twice the
 * budget straddle a window boundary. Statements in flight stay per node: a count held in the cluster
 * would leak the slots of a node that died holding them.
 */
public final class RateLimits {

  private final Map<String, LimitsConfig> byPrincipal = new HashMap<>();
  private final LimitsConfig fallback;
  private final Map<String, Budget> budgets = new ConcurrentHashMap<>();
  private final MeterRegistry registry;
  private final SharedWindows shared;

  public RateLimits(SluiceConfig config, MeterRegistry registry) {
    this(config, registry, null);
  }

  /** @param shared the cluster's window counters, or null on a single node */
  public RateLimits(SluiceConfig config, MeterRegistry registry, SharedWindows shared) {
    this.fallback = config.limits();
    this.registry = registry;
    this.shared = shared;
    for (PrincipalConfig p : config.principals()) {
      byPrincipal.put(p.name(), p.limits() == null ? config.limits() : p.limits());
    }
  }

  /** Admission for one statement; {@link Permit#release} when it ends, with the rows it returned. */
  public Future<Permit> acquire(String principal) {
    String who = principal == null ? PrincipalConfig.DEFAULT : principal;
    LimitsConfig l = byPrincipal.getOrDefault(who, fallback);
    if (l.unlimited()) {
      return Future.succeededFuture(Permit.NONE);
    }
    // with shared windows, the node's own budget only bounds statements in flight
    LimitsConfig local = shared == null ? l : new LimitsConfig(0, 0, l.concurrentQueries());
    Permit permit = Permit.NONE;
    if (!local.unlimited()) {
      Budget b = budgets.computeIfAbsent(who, k -> new Budget(local));
      String refusal = b.tryTake(System.nanoTime());
      if (refusal != null) {
        return Future.failedFuture(refuse(who, l, refusal, b.retryAfterMs(refusal, System.nanoTime())));
      }
      permit = new Permit(b, null);
    }
    if (shared == null || (l.queriesPerMinute() == 0 && l.rowsPerHour() == 0)) {
      return Future.succeededFuture(permit);
    }
    return sharedWindows(who, l, permit);
  }

  private Future<Permit> sharedWindows(String who, LimitsConfig l, Permit local) {
    long now = System.currentTimeMillis();
    String queries = who + "/queries/" + now / 60_000;
    String rows = who + "/rows/" + now / 3_600_000;
    Future<Long> q = l.queriesPerMinute() > 0 ? shared.add(queries, 1) : Future.succeededFuture(0L);
    Future<Long> r = l.rowsPerHour() > 0 ? shared.add(rows, 0) : Future.succeededFuture(0L);
    return Future.all(q, r).transform(ar -> {
      String refusal = ar.failed() ? null
          : l.queriesPerMinute() > 0 && q.result() > l.queriesPerMinute() ? "queries_per_minute"
          : l.rowsPerHour() > 0 && r.result() >= l.rowsPerHour() ? "rows_per_hour" : null;
      if (ar.failed() || refusal != null) {
        local.release(0);
        if (l.queriesPerMinute() > 0 && q.succeeded()) {
          shared.add(queries, -1); // a refused statement does not spend the budget
        }
      }
      if (ar.failed()) {
        return Future.failedFuture(new SqlError(ErrorType.BUSY, "the cluster's rate-limit counters did not answer ("
            + ar.cause().getMessage() + "); retry after retryAfterMs").with("retryAfterMs", 1_000));
      }
      if (refusal != null) {
        long retry = refusal.equals("queries_per_minute") ? 60_000 - now % 60_000 : 3_600_000 - now % 3_600_000;
        return Future.failedFuture(refuse(who, l, refusal, retry));
      }
      return Future.succeededFuture(new Permit(local.budget, l.rowsPerHour() > 0
          ? n -> shared.add(rows, n) : null));
    });
  }

  private SqlError refuse(String who, LimitsConfig l, String refusal, long retryMs) {
    Counter.builder("sluice_rate_limited_total").description("calls refused by a rate limit")
        .tag("principal", who).tag("limit", refusal).register(registry).increment();
    return new SqlError(ErrorType.RATE_LIMIT_EXCEEDED, "principal '" + who + "' is over its "
        + describe(refusal, l) + (shared == null ? "" : " (cluster-wide)") + "; retry in " + retryMs + " ms")
        .with("retryAfterMs", retryMs).with("limit", refusal);
  }

  private static String describe(String limit, LimitsConfig l) {
    return switch (limit) {
      case "queries_per_minute" -> "limit of " + l.queriesPerMinute() + " queries per minute";
      case "rows_per_hour" -> "limit of " + l.rowsPerHour() + " rows per hour";
      default -> "limit of " + l.concurrentQueries() + " queries in flight";
    };
  }

  /**
   * Each principal's budgets as they stand, for the operator's console: {@code {principal, scope,
   * limits:{queriesPerMinute, rowsPerHour, concurrentQueries}, remaining:{queries, rows},
   * inFlight}}. A remaining value is null where that limit is off. In a cluster, queries and rows
   * are the shared windows' (what is left of the current minute and hour); statements in flight
   * are this node's.
   */
  public Future<io.vertx.core.json.JsonArray> snapshot() {
    java.util.List<String> names = new java.util.ArrayList<>();
    names.add(PrincipalConfig.DEFAULT);
    names.addAll(new java.util.TreeSet<>(byPrincipal.keySet()));
    java.util.List<Future<io.vertx.core.json.JsonObject>> rows = new java.util.ArrayList<>();
    for (String who : names) {
      rows.add(snapshotOf(who, byPrincipal.getOrDefault(who, fallback)));
    }
    return Future.all(rows).map(all -> new io.vertx.core.json.JsonArray(new java.util.ArrayList<>(all.list())));
  }

  private Future<io.vertx.core.json.JsonObject> snapshotOf(String who, LimitsConfig l) {
    io.vertx.core.json.JsonObject limits = new io.vertx.core.json.JsonObject()
        .put("queriesPerMinute", l.queriesPerMinute()).put("rowsPerHour", l.rowsPerHour())
        .put("concurrentQueries", l.concurrentQueries());
    Budget b = budgets.get(who);
    double[] local = b == null ? new double[] {l.queriesPerMinute(), l.rowsPerHour(), 0} : b.standing(System.nanoTime());
    io.vertx.core.json.JsonObject out = new io.vertx.core.json.JsonObject().put("principal", who)
        .put("scope", shared == null ? "node" : "cluster").put("limits", limits).put("inFlight", (int) local[2]);
    if (shared == null) {
      return Future.succeededFuture(out.put("remaining", new io.vertx.core.json.JsonObject()
          .put("queries", l.queriesPerMinute() > 0 ? (Object) (long) Math.floor(local[0]) : null)
          .put("rows", l.rowsPerHour() > 0 ? (Object) (long) Math.floor(local[1]) : null)));
    }
    long now = System.currentTimeMillis();
    Future<Long> q = l.queriesPerMinute() > 0 ? shared.add(who + "/queries/" + now / 60_000, 0)
        : Future.succeededFuture(null);
    Future<Long> r = l.rowsPerHour() > 0 ? shared.add(who + "/rows/" + now / 3_600_000, 0)
        : Future.succeededFuture(null);
    return Future.all(q, r).map(v -> out.put("remaining", new io.vertx.core.json.JsonObject()
        .put("queries", q.result() == null ? null : Math.max(0, l.queriesPerMinute() - q.result()))
        .put("rows", r.result() == null ? null : Math.max(0, l.rowsPerHour() - r.result()))));
  }

  /** A granted statement slot. */
  public static final class Permit {
    static final Permit NONE = new Permit(null, null);
    private final Budget budget;
    private final java.util.function.LongConsumer sharedRows;
    private boolean released;

    Permit(Budget budget, java.util.function.LongConsumer sharedRows) {
      this.budget = budget;
      this.sharedRows = sharedRows;
    }

    public void release(long rows) {
      if (released || this == NONE) {
        return;
      }
      released = true;
      if (budget != null) {
        budget.give(rows, System.nanoTime());
      }
      if (sharedRows != null && rows > 0) {
        sharedRows.accept(rows);
      }
    }
  }

  /** One principal's buckets. */
  static final class Budget {
    private final LimitsConfig limits;
    private double queries;
    private double rows;
    private int inFlight;
    private long last;

    Budget(LimitsConfig limits) {
      this.limits = limits;
      this.queries = limits.queriesPerMinute();
      this.rows = limits.rowsPerHour();
      this.last = System.nanoTime();
    }

    /** @return null when admitted, else the name of the limit that refused */
    synchronized String tryTake(long now) {
      refill(now);
      if (limits.concurrentQueries() > 0 && inFlight >= limits.concurrentQueries()) {
        return "concurrent_queries";
      }
      if (limits.queriesPerMinute() > 0 && queries < 1) {
        return "queries_per_minute";
      }
      if (limits.rowsPerHour() > 0 && rows <= 0) {
        return "rows_per_hour";
      }
      queries -= 1;
      inFlight++;
      return null;
    }

    /** Queries and rows left, statements in flight. */
    synchronized double[] standing(long now) {
      refill(now);
      return new double[] {queries, rows, inFlight};
    }

    synchronized void give(long returnedRows, long now) {
      refill(now);
      inFlight--;
      rows -= returnedRows;
    }

    synchronized long retryAfterMs(String limit, long now) {
      refill(now);
      return switch (limit) {
        case "queries_per_minute" -> Math.max(1, (long) Math.ceil((1 - queries) * 60_000.0 / limits.queriesPerMinute()));
        case "rows_per_hour" -> Math.max(1, (long) Math.ceil((1 - rows) * 3_600_000.0 / limits.rowsPerHour()));
        default -> 250;
      };
    }

    private void refill(long now) {
      double seconds = (now - last) / 1e9;
      last = now;
      if (limits.queriesPerMinute() > 0) {
        queries = Math.min(limits.queriesPerMinute(), queries + seconds * limits.queriesPerMinute() / 60.0);
      }
      if (limits.rowsPerHour() > 0) {
        rows = Math.min(limits.rowsPerHour(), rows + seconds * limits.rowsPerHour() / 3600.0);
      }
    }
  }
}
