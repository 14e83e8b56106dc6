package dev.sluice.loadtest;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * One more MCP session that sends {@code ping} at a steady rate while the idle sessions ramp up and
 * are held: the responsiveness the idle acceptance asks for ("ping p99 <= 20 ms"). A ping counts
 * as "held" when every idle session had finished its set-up before it was sent (a slow ramp spills
 * into the hold time, and pings answered while sessions still queue are not the idle figure), else
 * as "ramp-up". A per-second count and maximum, and the send times of pings over 20 ms, show
 * when in the run the slow ones were. It runs on a
 * Vert.x instance of its own, so the generator's event loops, busy opening thousands of sessions,
 * do not delay its timer or its responses and the figure is the gateway's. Pings are sent on the
 * clock, not after the previous answer, so a stalled gateway shows up as latency rather than as
 * fewer samples; at most {@link #MAX_IN_FLIGHT} wait at once, the rest count as errors.
 */
final class PingProbe implements AutoCloseable {

  static final int MAX_IN_FLIGHT = 64;
  private static final long TIMEOUT_MS = 5_000;

  private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
      .setBlockedThreadCheckInterval(10_000));
  private final HttpClientAgent http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
      .setConnectTimeout(10_000), new PoolOptions().setHttp1MaxSize(MAX_IN_FLIGHT));
  private final double rateHz;
  private final long originNanos;
  private volatile long heldFromNanos = Long.MAX_VALUE;
  private final long[] secondMaxMicros;
  private final int[] secondCount;
  /** Held pings slower than the acceptance's 20 ms: [wall-clock ms when sent, latency ms], the first 200. */
  private final JsonArray slow = new JsonArray();
  static final int MAX_SLOW_LISTED = 200;
  static final long SLOW_MICROS = 20_000;
  private final long holdEndNanos;
  private final Histogram ramp = new Histogram(Stats.HIGHEST_MICROS, 3);
  private final Histogram held = new Histogram(Stats.HIGHEST_MICROS, 3);
  private final Map<String, AtomicLong> rampErrors = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> heldErrors = new ConcurrentHashMap<>();
  private final AtomicLong inFlight = new AtomicLong();
  private McpSession session;

  /** Pings at {@code rateHz} from now until {@code holdEndNanos}; seconds count from {@code originNanos}. */
  PingProbe(double rateHz, long originNanos, long holdEndNanos) {
    this.rateHz = rateHz;
    this.originNanos = originNanos;
    this.holdEndNanos = holdEndNanos;
    // one slot per second of the run, capped: the run's length is bounded by its options anyway
    int seconds = (int) Math.min(86_400, Math.max(1, (holdEndNanos - originNanos) / 1_000_000_000L + 2));
    secondMaxMicros = new long[seconds];
    secondCount = new int[seconds];
  }

  /** Every idle session has finished its set-up: pings sent from now on are the "held" figure. */
  void allSessionsSettled() {
    heldFromNanos = Math.min(heldFromNanos, System.nanoTime());
  }

  /** Opens the probe's session (blocking the caller, never an event loop) and starts pinging. */
  void start(String url, String token) throws Exception {
    session = new McpSession(vertx, http, url, token, TIMEOUT_MS);
    // a session is used from one event loop: opened there, pinged from there
    Promise<Void> opened = Promise.promise();
    vertx.runOnContext(v -> session.open().onComplete(opened));
    opened.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    long periodNanos = Math.round(1e9 / rateHz);
    vertx.runOnContext(v -> tick(System.nanoTime(), periodNanos));
  }

  private void tick(long due, long periodNanos) {
    long now = System.nanoTime();
    if (now >= holdEndNanos) {
      return;
    }
    send(now);
    // next ping on the fixed schedule, so one late timer does not shift all later pings
    long next = due + periodNanos;
    vertx.setTimer(Math.max(1, (next - System.nanoTime()) / 1_000_000), t -> tick(next, periodNanos));
  }

  private void send(long start) {
    boolean inRamp = start < heldFromNanos;
    if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
      inFlight.decrementAndGet();
      count(inRamp, "too_many_in_flight");
      return;
    }
    long[] timer = {0};
    boolean[] settled = {false};
    timer[0] = vertx.setTimer(TIMEOUT_MS, t -> {
      if (!settled[0]) {
        settled[0] = true;
        inFlight.decrementAndGet();
        count(inRamp, "timeout");
      }
    });
    session.ping().onComplete(ar -> {
      if (settled[0]) {
        return;
      }
      settled[0] = true;
      vertx.cancelTimer(timer[0]);
      inFlight.decrementAndGet();
      if (ar.succeeded()) {
        long us = Math.min(Stats.HIGHEST_MICROS, Math.max(1, (System.nanoTime() - start) / 1000));
        Histogram h = inRamp ? ramp : held;
        synchronized (h) {
          h.recordValue(us);
        }
        // completions run on the probe's one event loop, so the per-second arrays need no lock
        int sec = (int) Math.min(secondCount.length - 1, Math.max(0, (start - originNanos) / 1_000_000_000L));
        secondCount[sec]++;
        secondMaxMicros[sec] = Math.max(secondMaxMicros[sec], us);
        if (!inRamp && us > SLOW_MICROS && slow.size() < MAX_SLOW_LISTED) {
          // wall-clock, to line up with the gateway's GC log (-Xlog:gc:file=...:time)
          slow.add(new JsonArray().add(System.currentTimeMillis() - us / 1000).add(us / 1000.0));
        }
      } else {
        String m = ar.cause().getMessage();
        count(inRamp, m != null && m.startsWith("ping_") ? m : "io_" + ar.cause().getClass().getSimpleName());
      }
    });
  }

  private void count(boolean inRamp, String label) {
    (inRamp ? rampErrors : heldErrors).computeIfAbsent(label, k -> new AtomicLong()).incrementAndGet();
  }

  /** Errors while the sessions were held (the acceptance phase). */
  long heldErrorCount() {
    return heldErrors.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Errors per label, prefixed by phase, for the run's unexpected-error counts. */
  Map<String, Long> errorsByLabel() {
    Map<String, Long> m = new TreeMap<>();
    rampErrors.forEach((k, v) -> m.put("ping:ramp:" + k, v.get()));
    heldErrors.forEach((k, v) -> m.put("ping:held:" + k, v.get()));
    return m;
  }

  /**
   * Rate, the second the held phase began (null if it never did), latency (ms) and errors per
   * phase ("held" is the acceptance figure), and per second of the run [answered pings, max ms].
   */
  JsonObject toJson() {
    JsonArray perSecond = new JsonArray();
    for (int i = 0; i < secondCount.length; i++) {
      perSecond.add(new JsonArray().add(secondCount[i]).add(secondMaxMicros[i] / 1000.0));
    }
    long from = heldFromNanos;
    return new JsonObject().put("rateHz", rateHz)
        .put("heldFromSecond", from == Long.MAX_VALUE ? null : Math.round((from - originNanos) / 1e7) / 100.0)
        .put("held", phase(held, heldErrors)).put("rampUp", phase(ramp, rampErrors)).put("perSecond", perSecond)
        .put("slowerThan20ms", slow.copy());
  }

  private static JsonObject phase(Histogram h, Map<String, AtomicLong> errors) {
    JsonObject e = new JsonObject();
    new TreeMap<>(errors).forEach((k, v) -> e.put(k, v.get()));
    return new JsonObject().put("latencyMs", Stats.percentiles(h))
        .put("errors", errors.values().stream().mapToLong(AtomicLong::get).sum()).put("errorsByLabel", e);
  }

  @Override
  public void close() throws Exception {
    if (session != null) {
      Promise<Void> closed = Promise.promise();
      vertx.runOnContext(v -> session.close().onComplete(closed));
      try {
        closed.future().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        // the gateway expires the session on its own; closing the client matters more
      }
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
