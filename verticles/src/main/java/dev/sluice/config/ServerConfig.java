package dev.sluice.config;

import java.util.List;

/**
 * The HTTP front's settings (YAML section {@code server}).
 *
 * @param host bind address; anything but loopback requires {@code token}
 * @param port TCP port; 0 picks a free one
 * @param token bearer token required on every /mcp request when set (null: no auth)
 * @param allowedHosts extra Host header values accepted besides localhost, 127.0.0.1, ::1
 * @param allowedOrigins full origins (scheme://host:port) a browser may call from; empty: none
 * @param maxBodyBytes largest accepted request body
 * @param sessionIdleTimeoutMs a session with no request for this long is closed
 * @param sseReplayEvents events kept per stream for Last-Event-ID replay
 * @param slowCallMs tool.end is logged at warn past this duration
 * @param maxSessions open sessions allowed on this node before initialize answers 503
 * @param drainTimeoutMs on a graceful stop, how long in-flight calls may run on before they are cancelled
 * @param eventLoops Vert.x event loops of a node that owns its Vert.x; 0: half the processors, at least one
 * @param bodyTimeoutMs a POST body not complete this long after its headers is answered 408
 */
public record ServerConfig(
    String host,
    int port,
    String token,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    long maxBodyBytes,
    long sessionIdleTimeoutMs,
    int sseReplayEvents,
    long slowCallMs,
    int maxSessions,
    long drainTimeoutMs,
    int eventLoops,
    long bodyTimeoutMs) {

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 7878;
  public static final long DEFAULT_MAX_BODY_BYTES = 4L * 1024 * 1024;
  public static final long DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30L * 60 * 1000;
  public static final int DEFAULT_SSE_REPLAY_EVENTS = 256;
  /** The feature-log contract (spec 000): a completed call slower than 10 s ends at warn. */
  public static final long DEFAULT_SLOW_CALL_MS = 10_000;
  public static final int DEFAULT_MAX_SESSIONS = 20_000;
  public static final long DEFAULT_DRAIN_TIMEOUT_MS = 30_000;
  public static final long DEFAULT_BODY_TIMEOUT_MS = 30_000;
  /** Chosen per machine: {@link #resolvedEventLoops()}. */
  public static final int AUTO_EVENT_LOOPS = 0;

  public static ServerConfig defaults() {
    return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, null, List.of(), List.of(),
        DEFAULT_MAX_BODY_BYTES, DEFAULT_SESSION_IDLE_TIMEOUT_MS, DEFAULT_SSE_REPLAY_EVENTS,
        DEFAULT_SLOW_CALL_MS, DEFAULT_MAX_SESSIONS, DEFAULT_DRAIN_TIMEOUT_MS, AUTO_EVENT_LOOPS,
        DEFAULT_BODY_TIMEOUT_MS);
  }

  public ServerConfig withPort(int newPort) {
    return new ServerConfig(host, newPort, token, allowedHosts, allowedOrigins, maxBodyBytes,
        sessionIdleTimeoutMs, sseReplayEvents, slowCallMs, maxSessions, drainTimeoutMs, eventLoops,
        bodyTimeoutMs);
  }

  public ServerConfig withToken(String newToken) {
    return new ServerConfig(host, port, newToken, allowedHosts, allowedOrigins, maxBodyBytes,
        sessionIdleTimeoutMs, sseReplayEvents, slowCallMs, maxSessions, drainTimeoutMs, eventLoops,
        bodyTimeoutMs);
  }

  public ServerConfig withBodyTimeoutMs(long ms) {
    return new ServerConfig(host, port, token, allowedHosts, allowedOrigins, maxBodyBytes,
        sessionIdleTimeoutMs, sseReplayEvents, slowCallMs, maxSessions, drainTimeoutMs, eventLoops, ms);
  }

  public ServerConfig withSessionIdleTimeoutMs(long ms) {
    return new ServerConfig(host, port, token, allowedHosts, allowedOrigins, maxBodyBytes,
        ms, sseReplayEvents, slowCallMs, maxSessions, drainTimeoutMs, eventLoops,
        bodyTimeoutMs);
  }

  /**
   * The event loops to run: as configured, else half the processors (at least one). A call crosses
   * from the HTTP verticle to its session's shard, the executor and back; on different loops each
   * crossing wakes a thread, and on 2 cores one loop served a small PostgreSQL read with 0.55x the
   * CPU and 0.6x the latency of two (docs/performance.md).
   */
  public int resolvedEventLoops() {
    return eventLoops > 0 ? eventLoops : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  }

  /** Records print every component; the token must never reach a log line. */
  @Override
  public String toString() {
    return "ServerConfig[host=" + host + ", port=" + port
        + ", token=" + (token == null ? "none" : "***")
        + ", allowedHosts=" + allowedHosts + ", allowedOrigins=" + allowedOrigins
        + ", maxBodyBytes=" + maxBodyBytes + ", sessionIdleTimeoutMs=" + sessionIdleTimeoutMs
        + ", sseReplayEvents=" + sseReplayEvents + ", slowCallMs=" + slowCallMs
        + ", maxSessions=" + maxSessions + ", drainTimeoutMs=" + drainTimeoutMs + ", eventLoops=" + eventLoops
        + ", bodyTimeoutMs=" + bodyTimeoutMs + "]";
  }
}
