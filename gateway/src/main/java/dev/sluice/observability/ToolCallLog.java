package dev.sluice.observability;

import static net.logstash.logback.argument.StructuredArguments.kv;

import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool.start / tool.end structured log pair. Both carry the same callId so a log search finds
 * a call's whole story; arguments are size-capped so one huge SQL text cannot flood the log.
 */
public final class ToolCallLog {

  private static final Logger LOG = LoggerFactory.getLogger("sluice.tool");
  static final int MAX_ARGS_CHARS = 2_000;

  private final long slowCallMs;

  public ToolCallLog(long slowCallMs) {
    this.slowCallMs = slowCallMs;
  }

  public void start(String callId, String sessionId, String tool, JsonObject args) {
    if (LOG.isInfoEnabled()) {
      LOG.info("tool.start", kv("callId", callId), kv("sessionId", sessionId), kv("tool", tool),
          kv("args", capped(args)));
    }
  }

  /**
   * @param outcome {@code ok}, {@code error} or {@code cancelled}
   * @param errorType the error_type when outcome is error
   */
  public void end(String callId, String sessionId, String tool, String outcome, String errorType,
      long durationMs) {
    Object[] fields = {kv("callId", callId), kv("sessionId", sessionId), kv("tool", tool),
        kv("outcome", outcome), kv("errorType", errorType), kv("durationMs", durationMs)};
    if ("error".equals(outcome) && "internal_error".equals(errorType)) {
      LOG.error("tool.end", fields);
    } else if (durationMs >= slowCallMs || "error".equals(outcome)) {
      LOG.warn("tool.end", fields);
    } else if (LOG.isInfoEnabled()) {
      LOG.info("tool.end", fields);
    }
  }

  static String capped(JsonObject args) {
    String s = args == null ? "{}" : args.encode();
    return s.length() <= MAX_ARGS_CHARS ? s
        : s.substring(0, MAX_ARGS_CHARS) + "...[" + (s.length() - MAX_ARGS_CHARS) + " more chars]";
  }
}
