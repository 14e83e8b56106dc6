package dev.sluice.sql.pool;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The expected engine time of a statement, learned from the last calls of the same fingerprint:
 * an exponentially weighted mean per fingerprint, for the most recently used {@link #MAX_KEYS}
 * fingerprints. A fingerprint never seen is expected to cost what calls on this pool cost on
 * average. Not thread-safe: owned by one pool on its context.
 */
final class CostHistory {

  static final int MAX_KEYS = 1_024;
  /** Weight of the newest sample: a plan that changed shows within a handful of calls. */
  private static final double ALPHA = 0.3;
  /** The pool-wide mean moves slowly so one outlier does not reclassify every new statement. */
  private static final double POOL_ALPHA = 0.05;

  private final Map<String, Double> byKey = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
      return size() > MAX_KEYS;
    }
  };
  private double poolMean;

  CostHistory(double initialMs) {
    this.poolMean = initialMs;
  }

  double expectedMs(String key) {
    Double known = byKey.get(key);
    return known != null ? known : poolMean;
  }

  void record(String key, double elapsedMs) {
    double ms = Math.max(0, elapsedMs);
    byKey.merge(key, ms, (old, x) -> old + ALPHA * (x - old));
    poolMean += POOL_ALPHA * (ms - poolMean);
  }
}
