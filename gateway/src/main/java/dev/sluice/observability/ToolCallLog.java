package dev.sluice.observability;

import dev.sluice.bus.JsonBytes;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool.start / tool.end structured log pair. Both carry the same callId so a log search finds
 * a call's whole story; arguments are size-capped so one huge SQL text cannot flood the log.
 */
public final class ToolCallLog {

  private static final Logger LOG = LoggerFactory.getLogger("sluice.tool");
  static final int MAX_ARGS_CHARS = 2_000;
  private static final String[] START = {"callId", "sessionId", "tool", "args"};
  private static final String[] END = {"callId", "sessionId", "tool", "outcome", "errorType", "error", "durationMs"};
  /** Per event loop: the arguments' JSON is written here, then read once as the logged text. */
  private static final ThreadLocal<ByteArrayOutputStream> ARGS_JSON =
      ThreadLocal.withInitial(() -> new ByteArrayOutputStream(256));

  private final long slowCallMs;

  public ToolCallLog(long slowCallMs) {
    this.slowCallMs = slowCallMs;
  }

  public void start(String callId, String sessionId, String tool, JsonObject args) {
    if (LOG.isInfoEnabled()) {
      LOG.info("tool.start", new LogFields(START, callId, sessionId, tool, capped(args)));
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
    LogFields fields = new LogFields(END, callId, sessionId, tool, outcome, errorType, errorMessage, durationMs);
    if ("error".equals(outcome)) {
      LOG.error("tool.end", fields);
    } else if (durationMs >= slowCallMs) {
      LOG.warn("tool.end", fields);
    } else if (LOG.isInfoEnabled()) {
      LOG.info("tool.end", fields);
    }
  }

  /** The arguments' JSON (written by the streaming encoder, as a client sent them), cut when long. */
  static String capped(JsonObject args) {
    if (args == null) {
      return "{}";
    }
    ByteArrayOutputStream out = ARGS_JSON.get();
    out.reset();
    JsonBytes.write(args, out);
    String s = out.toString(StandardCharsets.UTF_8);
    if (out.size() > 64 * 1024) {
      ARGS_JSON.remove(); // a huge SQL text does not stay allocated on this thread
    }
    return s.length() <= MAX_ARGS_CHARS ? s
        : s.substring(0, MAX_ARGS_CHARS) + "...[" + (s.length() - MAX_ARGS_CHARS) + " more chars]";
  }
}
