package dev.sluice.mcp;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.observability.ToolCallLog;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Answers the JSON-RPC requests and notifications of an initialized session: ping, tools,
 * logging, resources, prompts, completion, cancellation. Runs on the owning shard's event loop.
 */
final class McpDispatcher {

  private static final List<String> LOG_LEVELS = Session.LOG_LEVELS;

  private final Vertx vertx;
  private final McpFeatures features;
  private final GatewayMetrics metrics;
  private final ToolCallLog callLog;
  private final String nodeId;
  private final AuditTrail audit;
  private final String progressAddress;
  private final java.util.Map<String, ToolCall> shardQueries;

  McpDispatcher(Vertx vertx, String nodeId, AuditTrail audit, McpFeatures features, GatewayMetrics metrics,
      ToolCallLog callLog,
      String progressAddress, java.util.Map<String, ToolCall> shardQueries) {
    this.shardQueries = shardQueries;
    this.vertx = vertx;
    this.features = features;
    this.metrics = metrics;
    this.callLog = callLog;
    this.nodeId = nodeId;
    this.audit = audit;
    this.progressAddress = progressAddress;
  }

  /**
   * Handles one request. The Future holds the JSON-RPC response, or null when none must be sent
   * (the call was cancelled).
   */
  Future<JsonObject> request(Session session, JsonObject msg, EventStream stream) {
    Object id = msg.getValue("id");
    String method = msg.getString("method");
    JsonObject params = msg.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    try {
      switch (method) {
        case "ping":
          return Future.succeededFuture(JsonRpc.result(id, new JsonObject()));
        case "initialize":
          return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INVALID_REQUEST,
              "session is already initialized; start a new session without Mcp-Session-Id"));
        case "tools/list":
          return Future.succeededFuture(toolsList(session, id, params));
        case "tools/call":
          return toolsCall(session, id, params, stream);
        case "logging/setLevel":
          return Future.succeededFuture(setLevel(session, id, params));
        case "resources/list":
        case "resources/templates/list":
        case "resources/read":
        case "resources/subscribe":
        case "resources/unsubscribe":
          return resources(id, method, params);
        case "prompts/list":
        case "prompts/get":
          return prompts(id, method, params);
        case "completion/complete":
          return completion(id, params);
        default:
          return Future.succeededFuture(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND,
              "Method not found: " + method));
      }
    } catch (RuntimeException e) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR,
          "internal error handling " + method));
    }
  }

  /** Handles a client notification; unknown ones are ignored as the spec asks. */
  void notification(Session session, JsonObject msg) {
    String method = msg.getString("method");
    JsonObject params = msg.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    switch (method) {
      case "notifications/initialized":
        session.initialized = true;
        break;
      case "notifications/cancelled":
        Object requestId = params.getValue("requestId");
        ToolCall call = requestId == null ? null : session.inFlight.get(String.valueOf(requestId));
        if (call != null) {
          call.cancel();
        }
        break;
      default:
        break;
    }
  }

  private JsonObject toolsList(Session session, Object id, JsonObject params) {
    String cursor = params.getString("cursor");
    if (cursor != null && ToolRegistry.decodeCursor(cursor) < 0) {
      return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid cursor: " + cursor);
    }
    return JsonRpc.result(id, features.tools().page(cursor,
        ProtocolRevision.structuredOutput(session.protocolVersion)));
  }

  private JsonObject setLevel(Session session, Object id, JsonObject params) {
    String level = params.getString("level");
    if (!LOG_LEVELS.contains(level)) {
      return JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
          "Invalid log level: " + level + "; expected one of " + LOG_LEVELS);
    }
    session.logLevel = level;
    return JsonRpc.result(id, new JsonObject());
  }

  private Future<JsonObject> toolsCall(Session session, Object id, JsonObject params, EventStream stream) {
    String name = params.getString("name");
    Tool tool = name == null ? null : features.tools().get(name);
    if (tool == null) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown tool: " + name,
          new JsonObject().put("availableTools", new JsonArray(features.tools().names()))));
    }
    Object rawArgs = params.getValue("arguments");
    if (rawArgs != null && !(rawArgs instanceof JsonObject)) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
          "tools/call arguments must be an object"));
    }
    JsonObject args = rawArgs == null ? new JsonObject() : (JsonObject) rawArgs;
    JsonObject meta = params.getJsonObject("_meta");
    Object progressToken = meta == null ? null : meta.getValue("progressToken");
    String callId = String.valueOf(id);
    ToolCall call = new ToolCall(vertx, session, callId, progressToken, stream, progressAddress,
        shardQueries);
    session.inFlight.put(callId, call);
    // tracing: one span per call, its statements' guard / pool wait / engine as children (ExecutorClient)
    call.span = dev.sluice.tracing.Tracing.process().toolCall(name,
        args.getValue("connectionId") instanceof String c ? c : null, session.principal, session.id, id, meta);
    metrics.callStarted();
    long started = System.nanoTime();
    callLog.start(callId, session.id, name, args);
    boolean structured = ProtocolRevision.structuredOutput(session.protocolVersion);

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
      session.inFlight.remove(callId);
      metrics.callEnded();
      call.untrackQueries();
      long nanos = System.nanoTime() - started;
      if (call.cancelled()) {
        record(callId, session, name, "cancelled", "cancelled", null, nanos);
        audit(session, call, name, args, "cancelled", "cancelled", null, null, nanos, null);
        return Future.succeededFuture(null);
      }
      if (ar.succeeded()) {
        record(callId, session, name, "ok", null, null, nanos);
        JsonObject s = ar.result().structured();
        audit(session, call, name, args, "ok", null, s == null ? null : s.getInteger("rowCount"),
            ar.result().text() == null ? null : ar.result().text().length(), nanos,
            s == null ? null : s.getString("queryId"));
        return Future.succeededFuture(JsonRpc.result(id, ar.result().toCallResult(structured)));
      }
      SqlError err = SqlError.from(ar.cause());
      record(callId, session, name, "error", err.type().wireName(), err.getMessage(), nanos);
      audit(session, call, name, args, "error", err.type().wireName(), null, null, nanos,
          err.details().getString("queryId"));
      return Future.succeededFuture(JsonRpc.result(id, errorResult(err)));
    });
  }

  private static Future<ToolResult> invoke(Tool tool, JsonObject args, ToolCall call) {
    try {
      Future<ToolResult> f = tool.call(args, call);
      return f == null ? Future.failedFuture(new SqlError(ErrorType.INTERNAL_ERROR, "tool returned no result")) : f;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private void audit(Session s, ToolCall call, String tool, JsonObject args, String outcome, String errorType,
      Integer rows, Integer bytes, long nanos, String queryId) {
    if (audit.enabled()) {
      Tool t = features.tools().get(tool);
      JsonObject recorded = t == null ? args : t.auditArgs(args);
      audit.record(AuditRecords.toolCall(nodeId, s.principal, s.id, call.callId(), s.clientInfo, tool, recorded,
          call.fingerprint, outcome, errorType, rows, bytes, nanos / 1_000_000, queryId));
    }
  }

  private void record(String callId, Session s, String tool, String outcome, String errorType, String errorMessage,
      long nanos) {
    metrics.toolCall(tool, outcome, nanos);
    callLog.end(callId, s.id, tool, outcome, errorType, errorMessage, nanos / 1_000_000);
  }

  /**
   * The in-band error: one text block, the {@code error_type: message} headline and then the whole
   * body as JSON (sql_state, position, suggestions, hint, retryAfterMs ...), and no
   * structuredContent. Spec 2025-11-25 shows execution errors as content only, and a client that
   * holds the tool's outputSchema checks any structuredContent against it even when isError is true
   * (TypeScript SDK 1.x Client.callTool), so an error body there would reach the agent as a client
   * exception instead of the error.
   */
  static JsonObject errorResult(SqlError err) {
    JsonObject body = err.toJson();
    return new JsonObject()
        .put("content", new JsonArray().add(new JsonObject().put("type", "text")
            .put("text", body.getString("error_type") + ": " + body.getString("message") + "\n" + body.encode())))
        .put("isError", true);
  }

  private Future<JsonObject> resources(Object id, String method, JsonObject params) {
    McpFeatures.Resources r = features.resources();
    if (r == null) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method));
    }
    switch (method) {
      case "resources/list":
        return Future.succeededFuture(JsonRpc.result(id, new JsonObject().put("resources", r.list())));
      case "resources/templates/list":
        return Future.succeededFuture(JsonRpc.result(id,
            new JsonObject().put("resourceTemplates", r.templates())));
      case "resources/subscribe":
      case "resources/unsubscribe":
        return Future.succeededFuture(JsonRpc.result(id, new JsonObject()));
      default:
        String uri = params.getString("uri");
        if (uri == null) {
          return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "uri is required"));
        }
        return r.read(uri).map(contents -> contents == null
            // the resources spec's code for an unknown resource
            ? JsonRpc.error(id, -32002, "Resource not found", new JsonObject().put("uri", uri))
            : JsonRpc.result(id, new JsonObject().put("contents", contents)));
    }
  }

  private Future<JsonObject> prompts(Object id, String method, JsonObject params) {
    McpFeatures.Prompts p = features.prompts();
    if (p == null) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method));
    }
    if ("prompts/list".equals(method)) {
      return Future.succeededFuture(JsonRpc.result(id, new JsonObject().put("prompts", p.list())));
    }
    String name = params.getString("name");
    JsonObject arguments = params.getJsonObject("arguments", new JsonObject());
    return p.get(name, arguments).map(result -> result == null
        ? JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown prompt: " + name)
        : JsonRpc.result(id, result));
  }

  private Future<JsonObject> completion(Object id, JsonObject params) {
    McpFeatures.Completions c = features.completions();
    if (c == null) {
      return Future.succeededFuture(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND,
          "Method not found: completion/complete"));
    }
    return c.complete(params.getJsonObject("ref", new JsonObject()),
        params.getJsonObject("argument", new JsonObject()),
        params.getJsonObject("context", new JsonObject())).map(r -> JsonRpc.result(id, r));
  }
}
