package dev.sluice.mcp;

import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.observability.ToolCallLog;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Runs one tool for a tools/call of either era: argument validation against the tool's schema,
 * the audit trail's back-pressure, the tool itself, and then the call's log line, meters and audit
 * record. What the client is sent is the caller's business: a session answers with a JSON-RPC
 * response, a stateless request with a 2026-07-28 result or a task.
 */
public final class ToolInvocation {

  /**
   * How a call ended: a result, an error (in band), cancelled (nothing is sent), or stopped to ask
   * the client first (the caller answers with what the call asked).
   */
  public record Outcome(ToolResult result, SqlError error, boolean cancelled, boolean awaitingClient) {

    /** The CallToolResult body for a result or an error (null when cancelled or awaiting the client). */
    public JsonObject callResult(boolean structured) {
      if (cancelled || awaitingClient) {
        return null;
      }
      return error == null ? result.toCallResult(structured) : errorResult(error);
    }
  }

  /** An error message beyond this is cut in the audit record; the agent got it whole. */
  static final int MAX_AUDIT_MESSAGE_CHARS = 2_000;

  private final String nodeId;
  private final AuditTrail audit;
  private final McpFeatures features;
  private final GatewayMetrics metrics;
  private final ToolCallLog callLog;

  public ToolInvocation(String nodeId, AuditTrail audit, McpFeatures features, GatewayMetrics metrics,
      ToolCallLog callLog) {
    this.nodeId = nodeId;
    this.audit = audit;
    this.features = features;
    this.metrics = metrics;
    this.callLog = callLog;
  }

  /**
   * Runs {@code tool} under {@code call}; never fails (a tool's failure is an {@link Outcome} with
   * its error).
   *
   * @param sessionId the session (2025-era), or null for a stateless request
   * @param meta the request's {@code params._meta} (a W3C traceparent in it parents the call's span)
   */
  public Future<Outcome> run(String name, Tool tool, JsonObject args, RunningCall call, String sessionId,
      JsonObject clientInfo, JsonObject meta) {
    // tracing: one span per call, its statements' guard / pool wait / engine as children (SqlGate)
    call.span = dev.sluice.tracing.Tracing.process().toolCall(name,
        args.getValue("connectionId") instanceof String c ? c : null, call.principal(), sessionId, call.callId(), meta);
    call.describe(name, args);
    metrics.callStarted();
    long started = System.nanoTime();
    callLog.start(call.callId(), sessionId, name, args);
    List<String> problems = features.tools().validate(name, args);
    Future<ToolResult> outcome = problems != null
        ? Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT,
            "invalid arguments for " + name + ": " + String.join("; ", problems),
            new JsonObject().put("problems", new JsonArray(problems))))
        : audit.saturated()
            ? Future.failedFuture(new SqlError(ErrorType.BUSY, "the audit trail is behind (audit.on_overflow: "
                + "block); no call runs unaudited, retry after retryAfterMs").with("retryAfterMs", 1_000))
            : invoke(tool, args, call);
    outcome = outcome.andThen(ar -> call.span.end(ar, call.cancelled()));
    return outcome.transform(ar -> {
      metrics.callEnded();
      call.untrackQueries();
      long nanos = System.nanoTime() - started;
      Record r = new Record(name, tool, args, call, sessionId, clientInfo, nanos);
      if (call.cancelled()) {
        r.log("cancelled", "cancelled", null);
        r.audit("cancelled", "cancelled", null, null, null, call.cancelledBy() != null
            ? "cancelled from the operator's console by " + call.cancelledBy() : null);
        return Future.succeededFuture(new Outcome(null, null, true, false));
      }
      if (call.awaitingClient()) {
        r.log("input_required", null, null);
        r.audit("input_required", null, null, null, null, null);
        return Future.succeededFuture(new Outcome(null, null, false, true));
      }
      if (ar.succeeded()) {
        r.log("ok", null, null);
        JsonObject s = ar.result().structured();
        r.audit("ok", null, s == null ? null : s.getInteger("rowCount"),
            ar.result().text() == null ? null : ar.result().text().length(), s == null ? null : s.getString("queryId"),
            null);
        return Future.succeededFuture(new Outcome(ar.result(), null, false, false));
      }
      SqlError err = SqlError.from(ar.cause());
      r.log("error", err.type().wireName(), err.getMessage());
      r.audit("error", err.type().wireName(), null, null, err.details().getString("queryId"), err.getMessage());
      return Future.succeededFuture(new Outcome(null, err, false, false));
    });
  }

  private static Future<ToolResult> invoke(Tool tool, JsonObject args, RunningCall call) {
    try {
      Future<ToolResult> f = tool.call(args, call);
      return f == null ? Future.failedFuture(new SqlError(ErrorType.INTERNAL_ERROR, "tool returned no result")) : f;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** What the end of one call writes: the tool.end log line, the meter, the audit record. */
  private final class Record {
    private final String name;
    private final Tool tool;
    private final JsonObject args;
    private final RunningCall call;
    private final String sessionId;
    private final JsonObject clientInfo;
    private final long nanos;

    Record(String name, Tool tool, JsonObject args, RunningCall call, String sessionId, JsonObject clientInfo,
        long nanos) {
      this.name = name;
      this.tool = tool;
      this.args = args;
      this.call = call;
      this.sessionId = sessionId;
      this.clientInfo = clientInfo;
      this.nanos = nanos;
    }

    void log(String outcome, String errorType, String errorMessage) {
      metrics.toolCall(name, outcome, nanos);
      callLog.end(call.callId(), sessionId, name, outcome, errorType, errorMessage, nanos / 1_000_000);
    }

    void audit(String outcome, String errorType, Integer rows, Integer bytes, String queryId, String errorMessage) {
      if (audit.enabled()) {
        JsonObject rec = AuditRecords.toolCall(nodeId, call.principal(), sessionId, call.callId(), clientInfo, name,
            tool.auditArgs(args), call.fingerprint(), outcome, errorType, rows, bytes, nanos / 1_000_000, queryId);
        if (errorMessage != null) {
          // the reason the agent was given (already scrubbed by policy): the console shows it for refusals
          rec.put("errorMessage", errorMessage.length() <= MAX_AUDIT_MESSAGE_CHARS ? errorMessage
              : errorMessage.substring(0, MAX_AUDIT_MESSAGE_CHARS) + "...[truncated]");
        }
        audit.record(rec);
      }
    }
  }

  /**
   * The in-band error: one text block, the {@code error_type: message} headline and then the whole
   * body as JSON (sql_state, position, suggestions, hint, retryAfterMs ...), and no
   * structuredContent. Spec 2025-11-25 shows execution errors as content only, and a client that
   * holds the tool's outputSchema checks any structuredContent against it even when isError is true
   * (TypeScript SDK 1.x Client.callTool), so an error body there would reach the agent as a client
   * exception instead of the error.
   */
  public static JsonObject errorResult(SqlError err) {
    JsonObject body = err.toJson();
    return new JsonObject()
        .put("content", new JsonArray().add(new JsonObject().put("type", "text")
            .put("text", body.getString("error_type") + ": " + body.getString("message") + "\n" + body.encode())))
        .put("isError", true);
  }
}
