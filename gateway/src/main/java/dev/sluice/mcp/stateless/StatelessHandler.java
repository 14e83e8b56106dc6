package dev.sluice.mcp.stateless;

import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.McpFeatures;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.mcp.RunningCall;
import dev.sluice.mcp.ToolInvocation;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.tasks.TaskRecord;
import dev.sluice.tasks.Tasks;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Answers requests of revision 2026-07-28, where every request stands alone: no session, no
 * handshake, its revision, client and capabilities in its own {@code _meta}, the principal from the
 * bearer token. It runs on the event loop of the transport that received the request (one per HTTP
 * verticle, one for stdio) and needs no session shard, no event-bus hop and no state of another
 * node, so any node of a cluster answers any request itself.
 *
 * <p>Methods: server/discover, tools/list (cacheable), tools/call (progress and log messages on the
 * request's own stream; input_required instead of requests to the client; long ones as tasks),
 * tasks/get|update|cancel (the Tasks extension), subscriptions/listen (tool list changes), and the
 * resources, prompts and completion methods when a provider is registered. Removed methods
 * (initialize, ping, logging/setLevel, resources/subscribe ...) are -32601.
 */
public final class StatelessHandler {

  /** tools/list and server/discover may be cached this long; list changes also arrive on subscriptions/listen. */
  public static final long TOOLS_TTL_MS = 60_000;
  public static final long DISCOVER_TTL_MS = 3_600_000;
  /**
   * Every result names the node that answered it ({@code _meta}, under our own prefix): behind a
   * load balancer this shows that a request was answered where it landed, never forwarded.
   */
  public static final String NODE_META = "dev.sluice/node";

  /**
   * A request under way: its JSON-RPC response when it completes (null: a cancelled call, which
   * answers nothing), and what to do when the client goes away (closing the stream cancels it).
   */
  public record Pending(Future<JsonObject> response, Runnable cancel) {
    static Pending of(JsonObject response) {
      return new Pending(Future.succeededFuture(response), () -> { });
    }
  }

  private final Vertx vertx;
  private final String nodeId;
  private final McpFeatures features;
  private final ToolInvocation invocation;
  private final Tasks tasks;
  private final NodeQueries nodeQueries;
  private final NodeCalls nodeCalls;
  private final String progressAddress = "sluice.mcp.stateless." + UUID.randomUUID() + ".progress";
  /** Executor queryId → the call of this loop that started it. */
  private final Map<String, RunningCall> loopQueries = new HashMap<>();
  private final Set<RunningCall> inFlight = new HashSet<>();
  /** Open subscriptions/listen requests of this loop, by subscription: what to send when the tool set changes. */
  private final Map<Listen, Consumer<JsonObject>> listens = new HashMap<>();
  private MessageConsumer<JsonObject> progress;

  private record Listen(Object id, Promise<JsonObject> end) {}

  public StatelessHandler(Vertx vertx, String nodeId, McpFeatures features, ToolInvocation invocation, Tasks tasks,
      NodeQueries nodeQueries, NodeCalls nodeCalls) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.features = features;
    this.invocation = invocation;
    this.tasks = tasks;
    this.nodeQueries = nodeQueries;
    this.nodeCalls = nodeCalls;
  }

  /** Call on the event loop that will use this handler. */
  public Future<Void> start() {
    var context = vertx.getOrCreateContext();
    progress = vertx.eventBus().localConsumer(progressAddress, msg -> {
      RunningCall call = loopQueries.get(msg.body().getString("queryId"));
      if (call != null) {
        call.executorProgress(msg.body());
      }
    });
    features.tools().onChange(() -> context.runOnContext(v -> toolsChanged()));
    return progress.completion();
  }

  /** Ends what still runs: calls are cancelled, subscriptions answered (a graceful end). */
  public Future<Void> stop() {
    List.copyOf(inFlight).forEach(RunningCall::cancel);
    List.copyOf(listens.keySet()).forEach(l -> l.end().tryComplete(listenEnd(l.id())));
    return progress == null ? Future.succeededFuture() : progress.unregister();
  }

  /**
   * One request. {@code notify} receives the notifications that belong to it (progress, log
   * messages, subscription notifications), in order, before its response.
   */
  public Pending request(JsonObject msg, Envelope env, String principal, Consumer<JsonObject> notify) {
    Object id = msg.getValue("id");
    String method = msg.getString("method");
    JsonObject params = msg.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    try {
      return switch (method) {
        case "server/discover" -> Pending.of(complete(id, discover(features.apps(env.clientCapabilities()))));
        case "tools/list" -> Pending.of(toolsList(id, params, features.apps(env.clientCapabilities())));
        case "tools/call" -> toolsCall(id, params, env, principal, notify);
        case "tasks/get", "tasks/update", "tasks/cancel" -> tasksMethod(id, method, params, env, principal);
        case "subscriptions/listen" -> listen(id, params, notify);
        case "resources/list", "resources/templates/list", "resources/read", "prompts/list", "prompts/get",
            "completion/complete" -> new Pending(providers(id, method, params,
                features.apps(env.clientCapabilities())), () -> { });
        default -> Pending.of(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method
            + (removed(method) ? " (removed in revision " + ProtocolRevision.V2026_07_28 + ")" : "")));
      };
    } catch (RuntimeException e) {
      return Pending.of(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error handling " + method));
    }
  }

  /**
   * The HTTP status of a response (streamable-http 2026-07-28): an unknown method is 404; a
   * missing client capability 400; every other answer, errors included, 200.
   */
  public static int httpStatus(JsonObject response) {
    if (response != null && response.getValue("error") instanceof JsonObject e) {
      int code = e.getInteger("code", 0);
      if (code == JsonRpc.METHOD_NOT_FOUND) {
        return 404;
      }
      if (code == JsonRpc.MISSING_CLIENT_CAPABILITY || code == JsonRpc.UNSUPPORTED_PROTOCOL_VERSION
          || code == JsonRpc.HEADER_MISMATCH) {
        return 400;
      }
    }
    return 200;
  }

  private static boolean removed(String method) {
    return List.of("initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe")
        .contains(method);
  }

  // ---- discovery and lists -------------------------------------------------------------------

  /**
   * @param apps the client renders MCP Apps: the answer names the viewer's extension too, and so
   *     differs by client and is no longer for shared caches
   */
  private JsonObject discover(boolean apps) {
    JsonObject caps = features.capabilities(apps);
    JsonObject extensions = caps.getValue("extensions") instanceof JsonObject e ? e : new JsonObject();
    caps.put("extensions", extensions.put(Envelope.TASKS_EXTENSION, new JsonObject()));
    JsonObject r = new JsonObject().put("supportedVersions", new JsonArray(ProtocolRevision.MODERN))
        .put("capabilities", caps);
    if (features.instructions() != null) {
      r.put("instructions", features.instructions());
    }
    // without the viewer the same for every caller: shared caches may keep it
    return r.put("ttlMs", DISCOVER_TTL_MS).put("cacheScope", apps ? "private" : "public");
  }

  private JsonObject toolsList(Object id, JsonObject params, boolean apps) {
    String cursor = params.getString("cursor");
    if (cursor != null && ToolRegistry.decodeCursor(cursor) < 0) {
      return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid cursor: " + cursor);
    }
    // every principal is listed the same tools (access is checked per call): a public list, except
    // that an apps client's names the viewer, which no other client may be served from a shared cache
    return complete(id, features.tools().page(cursor, true, apps).put("ttlMs", TOOLS_TTL_MS)
        .put("cacheScope", apps ? "private" : "public"));
  }

  // ---- tools/call ----------------------------------------------------------------------------

  private Pending toolsCall(Object id, JsonObject params, Envelope env, String principal,
      Consumer<JsonObject> notify) {
    String name = params.getString("name");
    Tool tool = name == null ? null : features.tools().get(name);
    if (tool == null) {
      // a client that cached the tool list refetches it on this error (caching spec)
      return Pending.of(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown tool: " + name,
          new JsonObject().put("availableTools", new JsonArray(features.tools().names()))));
    }
    Object rawArgs = params.getValue("arguments");
    Object rawInput = params.getValue("inputResponses");
    if (rawArgs != null && !(rawArgs instanceof JsonObject) || rawInput != null && !(rawInput instanceof JsonObject)) {
      return Pending.of(JsonRpc.error(id, JsonRpc.INVALID_PARAMS,
          "tools/call arguments and inputResponses must be objects"));
    }
    JsonObject args = rawArgs == null ? new JsonObject() : (JsonObject) rawArgs;
    StatelessCall call = new StatelessCall(vertx, String.valueOf(id), env, principal, progressAddress, loopQueries,
        nodeQueries, (JsonObject) rawInput, notify);
    inFlight.add(call);
    String consoleId = nodeCalls.started(call);
    Future<ToolInvocation.Outcome> outcome = invocation.run(name, tool, args, call, null, env.clientInfo(), params.getJsonObject("_meta"))
        .onComplete(ar -> {
          inFlight.remove(call);
          nodeCalls.ended(consoleId);
        });
    if (!env.hasExtension(Envelope.TASKS_EXTENSION) || !Tasks.taskable(name)) {
      return new Pending(outcome.map(o -> answer(id, o, call)), call::cancel);
    }
    if ("memory_ingest".equals(name)) {
      // the run is queued in the store already: the task is that run, polled and fetched from any node
      return new Pending(outcome.compose(o -> o.result() == null || o.result().structured() == null
          ? Future.succeededFuture(answer(id, o, call))
          : tasks.ingest(principal, o.result().structured().getString("runId")).map(t -> taskCreated(id, t))),
          call::cancel);
    }
    return inlineOrTask(id, name, call, outcome);
  }

  /**
   * A task-capable call answers inline if it finishes within {@link Tasks#INLINE_MS}; otherwise
   * it becomes a task (stored before the answer leaves) and runs on, no longer tied to this
   * request's stream: the client polls tasks/get and cancels with tasks/cancel.
   */
  private Pending inlineOrTask(Object id, String name, StatelessCall call, Future<ToolInvocation.Outcome> outcome) {
    Promise<JsonObject> answer = Promise.promise();
    boolean[] adopted = {false};
    long timer = vertx.setTimer(Tasks.INLINE_MS, t -> {
      if (outcome.isComplete() || call.cancelled()) {
        return;
      }
      adopted[0] = true;
      call.detachFromStream();
      tasks.adopt(call, name, outcome, true)
          .onSuccess(task -> answer.tryComplete(taskCreated(id, task)))
          .onFailure(err -> {
            // nobody could ever fetch its result: stop the work
            call.cancel();
            answer.tryComplete(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "the task could not be stored: "
                + err.getMessage()));
          });
    });
    outcome.onComplete(ar -> {
      if (!adopted[0]) {
        vertx.cancelTimer(timer);
        answer.tryComplete(ar.succeeded() ? answer(id, ar.result(), call)
            : JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error running " + name));
      }
    });
    // once a task, closing the request's stream no longer cancels it (tasks/cancel does)
    return new Pending(answer.future(), () -> {
      if (!adopted[0]) {
        call.cancel();
      }
    });
  }

  private JsonObject answer(Object id, ToolInvocation.Outcome o, StatelessCall call) {
    if (o.cancelled()) {
      // the client cancelled (closed the stream): nobody listens; the operator did: the client is told
      return call.cancelledBy() == null ? null : complete(id, call.operatorCancelledResult());
    }
    if (o.awaitingClient()) {
      if (call.missingCapabilities() != null) {
        return JsonRpc.error(id, JsonRpc.MISSING_CLIENT_CAPABILITY, "Missing required client capability",
            new JsonObject().put("requiredCapabilities", call.missingCapabilities()));
      }
      // multi round-trip: the client answers these and retries the call with inputResponses
      return JsonRpc.result(id, new JsonObject().put("resultType", "input_required")
          .put("inputRequests", call.inputRequests()).put("_meta", serverMeta()));
    }
    return complete(id, o.callResult(true));
  }

  private JsonObject taskCreated(Object id, TaskRecord task) {
    return JsonRpc.result(id, task.toWire().put("resultType", "task").put("_meta", serverMeta()));
  }

  // ---- Tasks extension -----------------------------------------------------------------------

  private Pending tasksMethod(Object id, String method, JsonObject params, Envelope env, String principal) {
    if (!env.hasExtension(Envelope.TASKS_EXTENSION)) {
      return Pending.of(JsonRpc.error(id, JsonRpc.MISSING_CLIENT_CAPABILITY, "Missing required client capability",
          new JsonObject().put("requiredCapabilities", new JsonObject().put("extensions",
              new JsonObject().put(Envelope.TASKS_EXTENSION, new JsonObject())))));
    }
    String taskId = params.getString("taskId");
    Future<JsonObject> r = switch (method) {
      case "tasks/get" -> tasks.get(taskId, principal);
      case "tasks/update" -> tasks.update(taskId, principal).map(v -> new JsonObject());
      default -> tasks.cancel(taskId, principal).map(v -> new JsonObject());
    };
    return new Pending(r.map(result -> complete(id, result)).recover(err -> Future.succeededFuture(
        err instanceof Tasks.NotFound ? JsonRpc.error(id, JsonRpc.INVALID_PARAMS, err.getMessage())
            : JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "tasks: " + err.getMessage()))), () -> { });
  }

  // ---- subscriptions/listen ------------------------------------------------------------------

  /**
   * A long-lived request whose stream carries the change notifications the client opted in to,
   * each tagged with the subscription (the request's id). Tool list changes are the ones this
   * server has (approved queries published as tools come and go); others are left out of the
   * acknowledgement. It ends when the client closes the stream, or gracefully when the node stops.
   */
  private Pending listen(Object id, JsonObject params, Consumer<JsonObject> notify) {
    JsonObject wanted = params.getValue("notifications") instanceof JsonObject n ? n : new JsonObject();
    JsonObject agreed = new JsonObject();
    if (Boolean.TRUE.equals(wanted.getValue("toolsListChanged"))) {
      agreed.put("toolsListChanged", true);
    }
    Listen listen = new Listen(id, Promise.promise());
    notify.accept(JsonRpc.notification("notifications/subscriptions/acknowledged", new JsonObject()
        .put("_meta", new JsonObject().put(Envelope.SUBSCRIPTION_ID, id)).put("notifications", agreed)));
    if (agreed.containsKey("toolsListChanged")) {
      listens.put(listen, notify);
    }
    Future<JsonObject> end = listen.end().future().onComplete(ar -> listens.remove(listen));
    return new Pending(end, () -> {
      listens.remove(listen);
      listen.end().tryComplete(null);
    });
  }

  private void toolsChanged() {
    listens.forEach((l, notify) -> notify.accept(JsonRpc.notification("notifications/tools/list_changed",
        new JsonObject().put("_meta", new JsonObject().put(Envelope.SUBSCRIPTION_ID, l.id())))));
  }

  private JsonObject listenEnd(Object id) {
    return JsonRpc.result(id, new JsonObject().put("resultType", "complete")
        .put("_meta", serverMeta().put(Envelope.SUBSCRIPTION_ID, id)));
  }

  // ---- resources, prompts, completion (when a provider is registered) ------------------------

  private Future<JsonObject> providers(Object id, String method, JsonObject params, boolean apps) {
    McpFeatures.Resources r = features.resources(apps);
    McpFeatures.Prompts p = features.prompts();
    McpFeatures.Completions c = features.completions();
    switch (method) {
      case "resources/list":
        return r == null ? notFound(id, method)
            : Future.succeededFuture(complete(id, cacheable(new JsonObject().put("resources", r.list()))));
      case "resources/templates/list":
        return r == null ? notFound(id, method) : Future.succeededFuture(complete(id,
            cacheable(new JsonObject().put("resourceTemplates", r.templates()))));
      case "resources/read":
        if (r == null) {
          return notFound(id, method);
        }
        String uri = params.getString("uri");
        if (uri == null) {
          return Future.succeededFuture(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "uri is required"));
        }
        // 2026-07-28: an unknown resource is -32602 (it was -32002)
        return r.read(uri).map(contents -> contents == null
            ? JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Resource not found", new JsonObject().put("uri", uri))
            : complete(id, cacheable(new JsonObject().put("contents", contents))));
      case "prompts/list":
        return p == null ? notFound(id, method)
            : Future.succeededFuture(complete(id, cacheable(new JsonObject().put("prompts", p.list()))));
      case "prompts/get":
        if (p == null) {
          return notFound(id, method);
        }
        String name = params.getString("name");
        return p.get(name, params.getJsonObject("arguments", new JsonObject())).map(result -> result == null
            ? JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown prompt: " + name) : complete(id, result));
      default:
        return c == null ? notFound(id, method)
            : c.complete(params.getJsonObject("ref", new JsonObject()), params.getJsonObject("argument",
                new JsonObject()), params.getJsonObject("context", new JsonObject())).map(res -> complete(id, res));
    }
  }

  private static JsonObject cacheable(JsonObject result) {
    return result.put("ttlMs", 0L).put("cacheScope", "private");
  }

  private static Future<JsonObject> notFound(Object id, String method) {
    return Future.succeededFuture(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method));
  }

  // ---- result shape --------------------------------------------------------------------------

  /** A final result: {@code resultType: complete}, and who answered in its {@code _meta}. */
  private JsonObject complete(Object id, JsonObject result) {
    JsonObject meta = result.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
    meta.put(Envelope.SERVER_INFO, features.serverInfo()).put(NODE_META, nodeId);
    return JsonRpc.result(id, result.put("resultType", "complete").put("_meta", meta));
  }

  private JsonObject serverMeta() {
    return new JsonObject().put(Envelope.SERVER_INFO, features.serverInfo()).put(NODE_META, nodeId);
  }
}
