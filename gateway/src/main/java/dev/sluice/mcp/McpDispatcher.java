package dev.sluice.mcp;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolRegistry;
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
  private final ToolInvocation invocation;
  private final String progressAddress;
  private final java.util.Map<String, RunningCall> shardQueries;

  McpDispatcher(Vertx vertx, McpFeatures features, ToolInvocation invocation, String progressAddress,
      java.util.Map<String, RunningCall> shardQueries) {
    this.shardQueries = shardQueries;
    this.vertx = vertx;
    this.features = features;
    this.invocation = invocation;
    this.progressAddress = progressAddress;
  }

  /** Runs whenever a call starts or ends (the operator's console refreshes). */
  private Runnable callsChanged = () -> { };

  void onCallsChanged(Runnable r) {
    callsChanged = r;
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
          return resources(session, id, method, params);
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
        ProtocolRevision.structuredOutput(session.protocolVersion), features.apps(session.clientCapabilities)));
  }

  private JsonObject setLevel(Session session, Object id, JsonObject params) {
    String level = params.getString("level");
    if (!LOG_LEVELS.contains(level)) {
      return JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
          "Invalid log level: " + level + "; expected one of " + LOG_LEVELS);
    }
    session.logLevel = level;
    session.logLevelChosen = true;
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
    ToolCall call = new ToolCall(vertx, session, callId, progressToken, stream, progressAddress, shardQueries);
    session.inFlight.put(callId, call);
    session.callCount++;
    callsChanged.run();
    boolean structured = ProtocolRevision.structuredOutput(session.protocolVersion);
    return invocation.run(name, tool, args, call, session.id, session.clientInfo, meta).map(outcome -> {
      session.inFlight.remove(callId);
      callsChanged.run();
      if (outcome.cancelled() && call.cancelledBy() != null) {
        // the client did not ask for this: it is told, in band, instead of waiting for an answer
        return JsonRpc.result(id, call.operatorCancelledResult());
      }
      // a cancelled call sends no response
      return outcome.cancelled() ? null : JsonRpc.result(id, outcome.callResult(structured));
    });
  }

  private Future<JsonObject> resources(Session session, Object id, String method, JsonObject params) {
    McpFeatures.Resources r = features.resources(features.apps(session.clientCapabilities));
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
