package dev.sluice.sql.pool;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long each of the most recent {@link #MAX_TEXTS} read texts took the last time it ran, keyed
 * by the exact text: two reads of one fingerprint may differ by orders of magnitude with their
 * literals, and a slow one must not ride a shared connection because a cheap one of the same shape
 * was quick. Texts longer than {@link #MAX_TEXT} are not kept (so they never ride). Not
 * thread-safe: owned by one pool on its context (a {@code PoolGate}, a SQLite worker pool).
 */
public final class RecentReadTimes {

  static final int MAX_TEXTS = 1_024;
  static final int MAX_TEXT = 4_096;

  private final Map<String, Double> lastMs = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
      return size() > MAX_TEXTS;
    }
  };

  /**
   * The run of {@code sql} that just ended took {@code ms}; one {@code cutShort} (stopped at its
   * deadline or by a cancel before its answer) took an unknown time, so the text counts as slow
   * until a run of it answers in time again.
   */
  public void record(String sql, double ms, boolean cutShort) {
    if (sql.length() <= MAX_TEXT) {
      lastMs.put(sql, cutShort ? Double.POSITIVE_INFINITY : ms);
    }
  }

  /** Whether {@code sql} ran before and took at most {@code ms} the last time. */
  public boolean atMost(String sql, double ms) {
    Double last = sql.length() <= MAX_TEXT ? lastMs.get(sql) : null;
    return last != null && last <= ms;
  }
}
