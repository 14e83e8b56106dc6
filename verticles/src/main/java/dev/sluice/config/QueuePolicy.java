package dev.sluice.config;

import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Map;

/**
 * How one connection orders the calls waiting for a pooled connection (or SQLite worker).
 *
 * @param order {@link Order#FAIR} (the default) or {@link Order#FIFO}
 * @param maxPerPrincipal calls one principal may have waiting; 0 means the connection's whole
 *     {@code max_wait_queue}
 * @param shortReserve slots of the pool that only calls expected to be short may take (0: none)
 * @param shortMs a call whose expected engine time is below this counts as short
 * @param weights each principal's share of the pool relative to the others (absent: 1)
 * @param pipelineDepth how many small session-neutral reads may be in flight on one connection at
 *     once, where the engine pipelines them (PostgreSQL; on SQLite, jobs queued on one busy worker
 *     process); 1: every call has a connection to itself
 * @param rideMaxMs a read rides a shared connection only if the same text took at most this long
 *     the last time it ran: the longest a rider may hold up the riders behind it, as far as known
 */
public record QueuePolicy(Order order, int maxPerPrincipal, int shortReserve, long shortMs,
    Map<String, Integer> weights, int pipelineDepth, long rideMaxMs) {

  /** Served in order of arrival, or shared fairly across principals and sessions by expected cost. */
  public enum Order {
    FIFO, FAIR;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Order parse(String s) {
      for (Order o : values()) {
        if (o.wireName().equals(s)) {
          return o;
        }
      }
      return null;
    }
  }

  /** Below a tenth of a second an agent's call is interactive: a schema read, a small lookup. */
  public static final long DEFAULT_SHORT_MS = 100;
  /**
   * Eight small reads in one write to a backend, which then answers them without sleeping in
   * between: on 2 cores that took the server's CPU per call from 66 to 40 µs (performance.md).
   */
  public static final int DEFAULT_PIPELINE_DEPTH = 8;
  /** A small read's own time on a busy 2-core machine stays far below it (under 1 ms, p99 10-20 ms per call). */
  public static final long DEFAULT_RIDE_MAX_MS = 20;
  public static final QueuePolicy DEFAULT = new QueuePolicy(Order.FAIR, 0, 0, DEFAULT_SHORT_MS, Map.of(),
      DEFAULT_PIPELINE_DEPTH, DEFAULT_RIDE_MAX_MS);

  public QueuePolicy {
    weights = weights == null ? Map.of() : Map.copyOf(weights);
    pipelineDepth = Math.max(1, pipelineDepth);
    rideMaxMs = Math.max(1, rideMaxMs);
  }

  public QueuePolicy(Order order, int maxPerPrincipal, int shortReserve, long shortMs, Map<String, Integer> weights) {
    this(order, maxPerPrincipal, shortReserve, shortMs, weights, DEFAULT_PIPELINE_DEPTH, DEFAULT_RIDE_MAX_MS);
  }

  public int weight(String principal) {
    return weights.getOrDefault(principal, 1);
  }

  public QueuePolicy withOrder(Order o) {
    return new QueuePolicy(o, maxPerPrincipal, shortReserve, shortMs, weights, pipelineDepth, rideMaxMs);
  }

  public QueuePolicy withShortReserve(int slots) {
    return new QueuePolicy(order, maxPerPrincipal, slots, shortMs, weights, pipelineDepth, rideMaxMs);
  }

  public QueuePolicy withWeights(Map<String, Integer> w) {
    return new QueuePolicy(order, maxPerPrincipal, shortReserve, shortMs, w, pipelineDepth, rideMaxMs);
  }

  public QueuePolicy withMaxPerPrincipal(int n) {
    return new QueuePolicy(order, n, shortReserve, shortMs, weights, pipelineDepth, rideMaxMs);
  }

  public QueuePolicy withPipelineDepth(int depth) {
    return new QueuePolicy(order, maxPerPrincipal, shortReserve, shortMs, weights, depth, rideMaxMs);
  }

  public QueuePolicy withRideMaxMs(long ms) {
    return new QueuePolicy(order, maxPerPrincipal, shortReserve, shortMs, weights, pipelineDepth, ms);
  }

  public JsonObject toJson() {
    return new JsonObject().put("order", order.wireName()).put("max_per_principal", maxPerPrincipal)
        .put("short_reserve", shortReserve).put("short_ms", shortMs)
        .put("weights", new JsonObject(Map.copyOf(weights))).put("pipeline_depth", pipelineDepth)
        .put("ride_max_ms", rideMaxMs);
  }

  public static QueuePolicy fromJson(JsonObject j) {
    if (j == null) {
      return DEFAULT;
    }
    Order o = Order.parse(j.getString("order", "fair"));
    JsonObject w = j.getJsonObject("weights", new JsonObject());
    Map<String, Integer> weights = new java.util.HashMap<>();
    w.forEach(e -> weights.put(e.getKey(), ((Number) e.getValue()).intValue()));
    return new QueuePolicy(o == null ? Order.FAIR : o, j.getInteger("max_per_principal", 0),
        j.getInteger("short_reserve", 0), j.getLong("short_ms", DEFAULT_SHORT_MS), weights,
        j.getInteger("pipeline_depth", DEFAULT_PIPELINE_DEPTH), j.getLong("ride_max_ms", DEFAULT_RIDE_MAX_MS));
  }
}
