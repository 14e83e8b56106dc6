package dev.sluice.loadtest;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Everything one run measures, recorded from many event loops at once. Latencies are kept in
 * microseconds in HdrHistograms (3 significant digits, up to 10 minutes).
 */
public final class Stats {

  static final long HIGHEST_MICROS = 600_000_000L;

  private final Histogram overall = newHistogram();
  private final Map<String, Histogram> byScenario = new ConcurrentHashMap<>();
  private final Map<String, Histogram> firstProgress = new ConcurrentHashMap<>();
  private final Map<String, Histogram> progressCounts = new ConcurrentHashMap<>();
  private final Histogram sessionSetup = newHistogram();
  private final Histogram streamOpen = newHistogram();
  private final Map<String, AtomicLong> expected = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> unexpected = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
  private final AtomicLong sessionsOpened = new AtomicLong();
  private final AtomicLong sessionsReinitialized = new AtomicLong();
  private final AtomicLong sessionFailures = new AtomicLong();
  private final Timeline timeline;

  /** Stats whose per-second windows count from {@code originNanos} (System.nanoTime). */
  public Stats(long originNanos) {
    this.timeline = new Timeline(originNanos);
  }

  private static Histogram newHistogram() {
    return new Histogram(HIGHEST_MICROS, 3);
  }

  private static long micros(long nanos) {
    return Math.min(HIGHEST_MICROS, Math.max(1, nanos / 1000));
  }

  /** Records one finished call. */
  public void record(CallOutcome o, long endNanos) {
    long us = micros(o.latencyNanos());
    synchronized (overall) {
      overall.recordValue(us);
    }
    Histogram h = byScenario.computeIfAbsent(o.scenario(), k -> newHistogram());
    synchronized (h) {
      h.recordValue(us);
    }
    if (o.firstProgressNanos() >= 0) {
      Histogram f = firstProgress.computeIfAbsent(o.scenario(), k -> newHistogram());
      synchronized (f) {
        f.recordValue(micros(o.firstProgressNanos()));
      }
    }
    Histogram p = progressCounts.computeIfAbsent(o.scenario(), k -> new Histogram(1_000_000, 2));
    synchronized (p) {
      p.recordValue(Math.min(1_000_000, o.progressEvents()));
    }
    calls.computeIfAbsent(o.scenario(), k -> new AtomicLong()).incrementAndGet();
    String key = o.scenario() + ":" + o.label();
    switch (o.kind()) {
      case EXPECTED_ERROR -> expected.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
      case UNEXPECTED_ERROR -> unexpected.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
      default -> { }
    }
    timeline.record(endNanos, us, o.kind());
  }

  /** A session that completed its setup in {@code setupNanos}. */
  public void sessionOpened(long setupNanos) {
    sessionsOpened.incrementAndGet();
    synchronized (sessionSetup) {
      sessionSetup.recordValue(micros(setupNanos));
    }
  }

  /** A GET event stream that answered 200 {@code nanos} after it was requested. */
  public void streamOpened(long nanos) {
    synchronized (streamOpen) {
      streamOpen.recordValue(micros(nanos));
    }
  }

  /** A session re-initialized because its node was lost (404, or a call cut off by the node's death). */
  public void sessionReinitialized() {
    sessionsReinitialized.incrementAndGet();
  }

  /** A session that could not be set up counts as an unexpected error of scenario "session". */
  public void sessionFailed(String label) {
    sessionFailures.incrementAndGet();
    unexpected.computeIfAbsent("session:" + label, k -> new AtomicLong()).incrementAndGet();
  }

  /** {@code count} unexpected errors recorded elsewhere (the idle run's ping probe), under {@code key}. */
  public void unexpected(String key, long count) {
    unexpected.computeIfAbsent(key, k -> new AtomicLong()).addAndGet(count);
  }

  /** Calls recorded so far. */
  public long totalCalls() {
    synchronized (overall) {
      return overall.getTotalCount();
    }
  }

  /** Unexpected errors so far, session failures included. */
  public long unexpectedErrors() {
    return unexpected.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Percentiles in milliseconds: p50, p90, p99, p99.9, max, mean, count. */
  static JsonObject percentiles(Histogram h) {
    synchronized (h) {
      JsonObject j = new JsonObject().put("count", h.getTotalCount());
      if (h.getTotalCount() == 0) {
        return j;
      }
      return j.put("p50", h.getValueAtPercentile(50) / 1000.0)
          .put("p90", h.getValueAtPercentile(90) / 1000.0)
          .put("p99", h.getValueAtPercentile(99) / 1000.0)
          .put("p999", h.getValueAtPercentile(99.9) / 1000.0)
          .put("max", h.getMaxValue() / 1000.0)
          .put("mean", Math.round(h.getMean()) / 1000.0);
    }
  }

  private static JsonObject counts(Map<String, AtomicLong> m) {
    JsonObject j = new JsonObject();
    new TreeMap<>(m).forEach((k, v) -> j.put(k, v.get()));
    return j;
  }

  /** The run's measurements as JSON (latencies in ms). */
  public JsonObject toJson(double elapsedSeconds) {
    JsonObject scenarios = new JsonObject();
    new TreeMap<>(byScenario).forEach((name, h) -> {
      JsonObject s = new JsonObject().put("calls", calls.get(name).get()).put("latencyMs", percentiles(h));
      Histogram f = firstProgress.get(name);
      if (f != null) {
        s.put("firstProgressMs", percentiles(f));
      }
      Histogram p = progressCounts.get(name);
      synchronized (p) {
        s.put("progressEventsPerCall", Math.round(p.getMean() * 100) / 100.0);
      }
      scenarios.put(name, s);
    });
    long total = totalCalls();
    return new JsonObject()
        .put("calls", total)
        .put("elapsedSeconds", elapsedSeconds)
        .put("throughput", elapsedSeconds > 0 ? Math.round(total / elapsedSeconds * 10) / 10.0 : 0)
        .put("latencyMs", percentiles(overall))
        .put("scenarios", scenarios)
        .put("sessions", new JsonObject().put("opened", sessionsOpened.get()).put("failed", sessionFailures.get())
            .put("reinitialized", sessionsReinitialized.get())
            .put("setupMs", percentiles(sessionSetup)).put("streamOpenMs", percentiles(streamOpen)))
        .put("expectedOutcomes", counts(expected))
        .put("unexpectedErrors", counts(unexpected))
        .put("unexpectedErrorCount", unexpectedErrors())
        .put("timeline", timeline.toJson());
  }
}
