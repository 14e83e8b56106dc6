package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Per-second windows of completed calls: count, errors and latency percentiles. Thread-safe. */
final class Timeline {

  private static final long SECOND = 1_000_000_000L;
  private final long originNanos;
  private final List<Histogram> windows = new ArrayList<>();
  private final List<int[]> errors = new ArrayList<>();

  Timeline(long originNanos) {
    this.originNanos = originNanos;
  }

  /** @param kind how the call ended: unexpected errors and expected failures are counted per second */
  synchronized void record(long endNanos, long latencyMicros, CallOutcome.Kind kind) {
    int idx = (int) Math.max(0, (endNanos - originNanos) / SECOND);
    while (windows.size() <= idx) {
      windows.add(new Histogram(Stats.HIGHEST_MICROS, 2));
      errors.add(new int[2]);
    }
    windows.get(idx).recordValue(Math.min(Stats.HIGHEST_MICROS, Math.max(1, latencyMicros)));
    if (kind == CallOutcome.Kind.UNEXPECTED_ERROR) {
      errors.get(idx)[0]++;
    } else if (kind == CallOutcome.Kind.EXPECTED_ERROR) {
      errors.get(idx)[1]++;
    }
  }

  /** [{t, calls, errors, expectedErrors, p50Ms, p99Ms}] one entry per second since the origin. */
  synchronized JsonArray toJson() {
    JsonArray out = new JsonArray();
    for (int i = 0; i < windows.size(); i++) {
      Histogram h = windows.get(i);
      boolean any = h.getTotalCount() > 0;
      out.add(new JsonObject().put("t", i).put("calls", h.getTotalCount()).put("errors", errors.get(i)[0])
          .put("expectedErrors", errors.get(i)[1])
          .put("p50Ms", any ? h.getValueAtPercentile(50) / 1000.0 : null)
          .put("p99Ms", any ? h.getValueAtPercentile(99) / 1000.0 : null));
    }
    return out;
  }
}
