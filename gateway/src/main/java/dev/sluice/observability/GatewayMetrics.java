package dev.sluice.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.sluice.sql.pool.QueueMeters;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

/**
 * The gateway's Prometheus meters (served at /metrics). Thread-safe; one instance per process,
 * shared by every verticle instance.
 */
public final class GatewayMetrics {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicInteger openSessions = new AtomicInteger();
  private final AtomicInteger openSseStreams = new AtomicInteger();
  private final AtomicInteger callsInFlight = new AtomicInteger();
  private final AtomicInteger relayedCallsInFlight = new AtomicInteger();
  /** Keyed by method, then status: no key string built per request. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Counter>> httpCounters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Timer> toolTimers = new ConcurrentHashMap<>();
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
  /** Held here: a gauge holds its source weakly (see auditCounters). */
  private final AllocatedBytes allocated = new AllocatedBytes();
  /** Keyed by connection, then principal: no key string or capturing lambda made per call. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, AtomicInteger>> queueDepths = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Timer>> queueWaits = new ConcurrentHashMap<>();

  public GatewayMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gcMetrics.bindTo(registry);
    Gauge.builder("sluice_jvm_allocated_bytes", allocated, AllocatedBytes::sum)
        .description("bytes allocated so far by the JVM's live threads: over a load test, its change divided by the"
            + " calls is the allocation per call").register(registry);
    Gauge.builder("sluice_sessions_open", openSessions, AtomicInteger::get)
        .description("MCP sessions currently open on this node").register(registry);
    Gauge.builder("sluice_sse_streams_open", openSseStreams, AtomicInteger::get)
        .description("SSE streams currently open on this node").register(registry);
    Gauge.builder("sluice_tool_calls_in_flight", callsInFlight, AtomicInteger::get)
        .description("tools/call requests running on this node").register(registry);
    Gauge.builder("sluice_relayed_calls_in_flight", relayedCallsInFlight, AtomicInteger::get)
        .description("tools/call requests this node relays to the node owning their session").register(registry);
  }

  /**
   * Audit records written and dropped (a dropped one is an alarm: see audit.on_overflow).
   * Micrometer holds the source of a function counter weakly, so it must be an object that lives
   * as long as the gateway (the audit trail itself): a lambda held nowhere else is collected at
   * the next GC, and the counter then repeats its last value forever (it read 0 that way).
   */
  public <T> void auditCounters(T source, ToLongFunction<T> written, ToLongFunction<T> dropped) {
    FunctionCounter.builder("sluice_audit_records_written", source, s -> written.applyAsLong(s))
        .description("audit records written and fsynced").register(registry);
    FunctionCounter.builder("sluice_audit_records_dropped", source, s -> dropped.applyAsLong(s))
        .description("audit records lost because the writer fell behind").register(registry);
  }

  /**
   * The SQL wait queues' meters, per connection and principal: calls waiting now
   * ({@code sluice_sql_queue_depth}) and how long calls waited for a connection or SQLite worker
   * ({@code sluice_sql_queue_wait}). Principals are configured names, so the tag set is bounded.
   */
  public QueueMeters queueMeters() {
    return new QueueMeters() {
      @Override
      public void depth(String connectionId, String principal, int waiting) {
        AtomicInteger depth = existing(queueDepths, connectionId, principal);
        if (depth == null) {
          depth = queueDepths.computeIfAbsent(connectionId, k -> new ConcurrentHashMap<>()).computeIfAbsent(principal, k -> {
            AtomicInteger d = new AtomicInteger();
            Gauge.builder("sluice_sql_queue_depth", d, AtomicInteger::get)
                .description("calls waiting for a connection or SQLite worker")
                .tag("connection", connectionId).tag("principal", principal).register(registry);
            return d;
          });
        }
        depth.set(waiting);
      }

      @Override
      public void waited(String connectionId, String principal, double ms) {
        Timer wait = existing(queueWaits, connectionId, principal);
        if (wait == null) {
          wait = queueWaits.computeIfAbsent(connectionId, k -> new ConcurrentHashMap<>()).computeIfAbsent(principal,
              k -> Timer.builder("sluice_sql_queue_wait")
                  .description("time calls waited for a connection or SQLite worker")
                  .tag("connection", connectionId).tag("principal", principal)
                  .publishPercentiles(0.5, 0.99)
                  .register(registry));
        }
        wait.record((long) (ms * 1e6), java.util.concurrent.TimeUnit.NANOSECONDS);
      }
    };
  }

  public void httpRequest(String method, int status) {
    Counter c = existing(httpCounters, method, status);
    if (c == null) {
      c = httpCounters.computeIfAbsent(method, k -> new ConcurrentHashMap<>()).computeIfAbsent(status,
          k -> Counter.builder("sluice_http_requests")
              .description("HTTP requests by method and status")
              .tag("method", method).tag("status", Integer.toString(status))
              .register(registry));
    }
    c.increment();
  }

  private static <K, V> V existing(Map<String, ConcurrentHashMap<K, V>> meters, String outer, K inner) {
    ConcurrentHashMap<K, V> byInner = meters.get(outer);
    return byInner == null ? null : byInner.get(inner);
  }

  /** Records one finished tools/call. */
  /** The last 15 minutes of calls, per second, for the operator's console's charts. */
  private final CallRing calls = new CallRing();

  public CallRing callRing() {
    return calls;
  }

  public void toolCall(String tool, String outcome, long durationNanos) {
    calls.record(durationNanos);
    toolTimers.computeIfAbsent(tool + " " + outcome, k -> Timer.builder("sluice_tool_calls")
        .description("tools/call latency by tool and outcome")
        .tag("tool", tool).tag("outcome", outcome)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(60))
        .register(registry)).record(durationNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  public void callStarted() {
    callsInFlight.incrementAndGet();
  }

  public void callEnded() {
    callsInFlight.decrementAndGet();
  }

  public int callsInFlight() {
    return callsInFlight.get();
  }

  public void relayStarted() {
    relayedCallsInFlight.incrementAndGet();
  }

  public void relayEnded() {
    relayedCallsInFlight.decrementAndGet();
  }

  /** tools/call requests whose HTTP exchange is on this node while another node executes them. */
  public int relayedCallsInFlight() {
    return relayedCallsInFlight.get();
  }

  public void sessionOpened() {
    openSessions.incrementAndGet();
  }

  public void sessionClosed() {
    openSessions.decrementAndGet();
  }

  public int openSessions() {
    return openSessions.get();
  }

  public void sseOpened() {
    openSseStreams.incrementAndGet();
  }

  public void sseClosed() {
    openSseStreams.decrementAndGet();
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public String scrape() {
    return registry.scrape();
  }

  public void close() {
    gcMetrics.close();
    registry.close();
  }
}
