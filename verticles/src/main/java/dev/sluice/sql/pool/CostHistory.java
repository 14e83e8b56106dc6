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
  /**
   * One sample counts as at most this many times the expectation: a call stretched by a collector
   * pause or a busy event loop moves the expectation a little, while a plan that really got slower
   * still shows within about ten calls (the expectation nearly doubles with each).
   */
  private static final double MAX_STEP = 4;
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
    byKey.merge(key, ms, (old, x) -> old + ALPHA * (Math.min(x, old * MAX_STEP) - old));
    poolMean += POOL_ALPHA * (ms - poolMean);
  }
}
