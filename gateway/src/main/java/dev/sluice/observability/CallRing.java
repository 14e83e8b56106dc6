package dev.sluice.observability;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The last 15 minutes of tools/call, one slot per second: how many calls ended and a coarse
 * latency histogram, so the operator's console can draw calls/s and p99 without a time-series
 * store. Calls end on every event loop; slots are atomic counters, and a slot is cleared by the
 * first call of a new second that lands on it (a racing call of that second may be lost; these
 * are charts, not the audit trail).
 */
public final class CallRing {

  public static final int SECONDS = 15 * 60;
  /** Bucket i holds latencies below 2^i ms (bucket 0: under 1 ms); the last one is open-ended. */
  static final int BUCKETS = 20;

  private final AtomicLongArray second = new AtomicLongArray(SECONDS);
  private final AtomicLongArray counts = new AtomicLongArray(SECONDS * BUCKETS);

  public void record(long durationNanos) {
    record(System.currentTimeMillis() / 1000, durationNanos);
  }

  void record(long epochSecond, long durationNanos) {
    int slot = (int) (epochSecond % SECONDS);
    long was = second.get(slot);
    if (was != epochSecond && second.compareAndSet(slot, was, epochSecond)) {
      for (int b = 0; b < BUCKETS; b++) {
        counts.set(slot * BUCKETS + b, 0);
      }
    }
    counts.incrementAndGet(slot * BUCKETS + bucket(durationNanos / 1_000_000));
  }

  static int bucket(long ms) {
    int b = ms <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(ms);
    return Math.min(b, BUCKETS - 1);
  }

  /**
   * {@code {from, stepSeconds, calls:[per second], p99Ms:[per second, null when idle]}} for the 15
   * minutes up to now, oldest first. A p99 is the upper bound of the bucket it falls in (2^i ms).
   */
  public JsonObject snapshot() {
    return snapshot(System.currentTimeMillis() / 1000);
  }

  JsonObject snapshot(long nowSecond) {
    JsonArray calls = new JsonArray();
    JsonArray p99 = new JsonArray();
    long from = nowSecond - SECONDS + 1;
    for (long s = from; s <= nowSecond; s++) {
      int slot = (int) (s % SECONDS);
      long total = 0;
      long[] b = new long[BUCKETS];
      if (second.get(slot) == s) {
        for (int i = 0; i < BUCKETS; i++) {
          b[i] = counts.get(slot * BUCKETS + i);
          total += b[i];
        }
      }
      calls.add(total);
      p99.add(total == 0 ? null : percentile(b, total, 0.99));
    }
    return new JsonObject().put("from", from * 1000).put("stepSeconds", 1).put("calls", calls).put("p99Ms", p99);
  }

  private static Long percentile(long[] buckets, long total, double q) {
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += buckets[i];
      if (seen >= rank) {
        return 1L << i;
      }
    }
    return 1L << (BUCKETS - 1);
  }
}
