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
   * A failed call ends at error level with its error type and message (a deadline reads "query
   * exceeded Ns"), so a failure is a matched tool.start / tool.end(error) pair; a call that
   * succeeded but took longer than the slow-call threshold ends at warn; the rest at info.
   *
   * @param outcome {@code ok}, {@code error} or {@code cancelled}
   * @param errorType the error_type when outcome is error
   * @param errorMessage the error's message when outcome is error
   */
  public void end(String callId, String sessionId, String tool, String outcome, String errorType,
      String errorMessage, long durationMs) {
    Object[] fields = {kv("callId", callId), kv("sessionId", sessionId), kv("tool", tool),
        kv("outcome", outcome), kv("errorType", errorType), kv("error", errorMessage), kv("durationMs", durationMs)};
    if ("error".equals(outcome)) {
      LOG.error("tool.end", fields);
    } else if (durationMs >= slowCallMs) {
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
