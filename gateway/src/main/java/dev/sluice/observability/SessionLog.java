package dev.sluice.observability;

import static net.logstash.logback.argument.StructuredArguments.kv;

import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session.open / session.close structured log pair (the contract of the feature log, spec
 * 000): one line when initialize creates a session and one when it ends, with the same sessionId
 * the tool.start / tool.end lines carry, so a log search finds a session's whole story.
 */
public final class SessionLog {

  private static final Logger LOG = LoggerFactory.getLogger("sluice.session");

  private SessionLog() {}

  /** Why a session ended. */
  public enum Reason {
    /** the client sent DELETE (or stdin closed) */
    CLIENT,
    /** no request, no call and no open stream for session_idle_timeout_ms */
    IDLE,
    /** the node stopped */
    SHUTDOWN;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public static void open(String sessionId, String principal, String protocolVersion, JsonObject clientInfo) {
    LOG.info("session.open", kv("sessionId", sessionId), kv("principal", principal),
        kv("protocolVersion", protocolVersion), kv("client", clientInfo == null ? null : clientInfo.encode()));
  }

  public static void close(String sessionId, Reason reason, long openMs, int callsCancelled) {
    LOG.info("session.close", kv("sessionId", sessionId), kv("reason", reason.wire()), kv("durationMs", openMs),
        kv("callsCancelled", callsCancelled));
  }
}
