package dev.sluice.http;

import dev.sluice.bus.JsonFields;
import dev.sluice.access.Principals;
import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.bus.ByReferenceJson;
import dev.sluice.bus.JsonBytes;
import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.LocalShards;
import dev.sluice.mcp.McpBus;
import dev.sluice.mcp.stateless.StatelessHandler;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.observability.TransportLog;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The Streamable HTTP front (/mcp) plus /health and /metrics. One instance per event loop; holds
 * no session state. A 2026-07-28 request (its body carries the per-request {@code _meta}) is
 * answered right here by this loop's {@link StatelessHandler} ({@link StatelessPost}); a 2025-era
 * message is forwarded over the event bus to the shard that owns its session (see {@link McpBus}),
 * and SSE events come back to this instance's stream address.
 */
public final class HttpVerticle extends VerticleBase {

  /** Longest a POST waits for its answer; tool deadlines are far shorter, this only bounds leaks. */
  private static final long BUS_TIMEOUT_MS = 15 * 60 * 1000L;
  private static final AtomicInteger INITIALIZE_ROUND_ROBIN = new AtomicInteger();

  private final ServerConfig server;
  private final String nodeId;
  private final int shards;
  private final GatewayMetrics metrics;
  private final Supplier<Future<JsonObject>> health;
  private final TransportRules rules;
  private final Map<String, SseSink> streams = new HashMap<>();
  private SseFlushTick sse;
  /** Streams relayed for sessions another node owns: the owner, and the requests awaiting answers. */
  private final Map<String, Relay> relays = new HashMap<>();

  private record Relay(String ownerNode, List<Object> requestIds) {}

  /** Requests forwarded to another node and not yet answered, by owner node. */
  private final Map<Long, Forward> forwards = new HashMap<>();
  private long forwardSeq;
  /** Nodes that left the cluster: their sessions answer 404 at once. */
  private final java.util.Set<String> goneNodes = new java.util.HashSet<>();

  private record Forward(String ownerNode, RoutingContext ctx, String streamId) {}
  private final String streamAddress = "sluice.http." + UUID.randomUUID();
  private final String streamPrefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private long streamSeq;
  private HttpServer httpServer;
  private MessageConsumer<JsonObject> eventConsumer;
  private long keepAliveTimer;
  private final AuditTrail audit;
  private final java.util.function.BooleanSupplier draining;
  private final Supplier<StatelessHandler> statelessHandlers;
  private StatelessHandler stateless;
  private StatelessPost statelessPost;
  private final Principals principals;
  private dev.sluice.console.ConsoleRoutes console;

  /**
   * @param draining true once the node is leaving: no new sessions, /health answers 503
   * @param statelessHandlers makes this instance's handler of 2026-07-28 requests (one per loop)
   */
  public HttpVerticle(ServerConfig server, String nodeId, int shards, GatewayMetrics metrics,
      Supplier<Future<JsonObject>> health, AuditTrail audit, Principals principals,
      java.util.function.BooleanSupplier draining, Supplier<StatelessHandler> statelessHandlers) {
    this.statelessHandlers = statelessHandlers;
    this.audit = audit;
    this.draining = draining;
    this.server = server;
    this.nodeId = nodeId;
    this.shards = shards;
    this.metrics = metrics;
    this.health = health;
    this.rules = new TransportRules(server, principals);
    this.principals = principals;
  }

  @Override
  public Future<?> start() {
    ByReferenceJson.register(vertx);
    sse = new SseFlushTick(vertx, context);
    Router router = Router.router(vertx);
    router.route().handler(dev.sluice.tracing.Tracing.process()::httpRequest);
    router.route("/mcp").method(HttpMethod.POST)
        .handler(BodyHandler.create(false).setBodyLimit(server.maxBodyBytes())
            // sized by Content-Length (at most 64 KB up front, after the limit's check), not a
            // 1 KB first buffer for a tools/call of a few hundred bytes
            .setPreallocateBodyBuffer(true))
        .handler(this::post);
    router.get("/mcp").handler(this::get);
    router.delete("/mcp").handler(this::delete);
    // transport spec: any other method on the MCP endpoint is 405
    router.route("/mcp").handler(ctx -> reject(ctx, new TransportRules.Rejection(405,
        "Method Not Allowed"), "GET, POST, DELETE"));
    router.get("/health").handler(this::health);
    router.get("/metrics").handler(this::metrics);
    console = new dev.sluice.console.ConsoleRoutes(vertx, nodeId, shards, rules, principals, audit,
        server.slowCallMs(), metrics.callRing());
    Future<Void> consoleMounted = console.mount(router);
    // cluster-wide: a session owned by another node streams its events back here
    eventConsumer = vertx.eventBus().consumer(streamAddress, this::streamEvent);
    vertx.eventBus().<String>localConsumer(McpBus.NODE_LEFT, m -> ownerLeft(m.body()));
    vertx.eventBus().<String>localConsumer(McpBus.NODE_JOINED, m -> goneNodes.remove(m.body()));
    keepAliveTimer = vertx.setPeriodic(SseSink.KEEPALIVE_TICK_MS, t -> {
      long now = System.currentTimeMillis();
      streams.values().forEach(s -> s.keepAliveIfDue(now));
    });
    stateless = statelessHandlers.get();
    statelessPost = new StatelessPost(stateless, rules, metrics, sse, streams, draining, streamPrefix);
    return eventConsumer.completion()
        .compose(v -> consoleMounted)
        .compose(v -> stateless.start())
        .compose(v -> vertx.createHttpServer(new HttpServerOptions()
                .setHost(server.host()).setPort(server.port())
                .setCompressionSupported(false)
                .setIdleTimeout(0))
            .requestHandler(router)
            // a connection that broke mid-request or mid-stream (reset, TLS, HTTP framing)
            .exceptionHandler(e -> TransportLog.error("http", null, "connection", e.toString()))
            .listen())
        .onSuccess(s -> httpServer = s);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(keepAliveTimer);
    if (console != null) {
      console.stop();
    }
    Future<Void> handlerStopped = stateless == null ? Future.succeededFuture() : stateless.stop();
    return handlerStopped.transform(x -> httpServer == null ? Future.succeededFuture() : httpServer.close());
  }

  public int actualPort() {
    return httpServer.actualPort();
  }

  // ---- POST ----------------------------------------------------------------------------------

  private void post(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.contentType(req), TransportRules.postAccept(req));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    Object parsed;
    try {
      parsed = JsonBytes.decode(ctx.body().buffer());
    } catch (DecodeException | NullPointerException e) {
      TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "parse", "POST body is not valid JSON");
      answerJson(ctx, 400, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: body is not valid JSON"));
      return;
    }
    if (JsonRpc.kind(parsed) != JsonRpc.Kind.INVALID && StatelessPost.applies(req, parsed)) {
      // 2026-07-28: the request describes itself; this loop answers it, no session, no bus hop
      statelessPost.post(ctx, (JsonObject) parsed);
      return;
    }
    TransportRules.Rejection version = TransportRules.protocolVersion(req);
    if (version != null) {
      reject(ctx, version, null);
      return;
    }
    boolean batch = parsed instanceof JsonArray;
    JsonArray messages = batch ? (JsonArray) parsed : new JsonArray().add(parsed);
    if (messages.isEmpty()) {
      TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "invalid_request", "empty JSON-RPC batch");
      answerJson(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid Request: empty batch"));
      return;
    }
    boolean hasToolCall = false;
    for (Object m : messages) {
      if (JsonRpc.kind(m) == JsonRpc.Kind.INVALID) {
        TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "invalid_request",
            "not a JSON-RPC 2.0 request, notification or response");
        answerJson(ctx, 400, JsonRpc.error(JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST,
            "Invalid Request: not a JSON-RPC 2.0 request, notification or response"));
        return;
      }
      hasToolCall |= "tools/call".equals(((JsonObject) m).getString("method"));
    }
    String sid = req.getHeader("Mcp-Session-Id");
    String address;
    McpBus.Route route = null;
    if (sid == null && draining.getAsBoolean()) {
      // sessions already open here are served to the end; new ones belong on another node
      ctx.response().putHeader("Retry-After", "1");
      answerJson(ctx, 503, JsonRpc.error(JsonRpc.idOf(messages.getValue(0)), -32000,
          "This node is draining (shutting down) and takes no new sessions; retry, and the load balancer "
              + "sends you to another node"));
      return;
    }
    if (sid == null) {
      address = McpBus.shard(nodeId, Math.floorMod(INITIALIZE_ROUND_ROBIN.getAndIncrement(), shards));
    } else {
      route = McpBus.route(sid);
      if (route == null || goneNodes.contains(route.nodeId())) {
        answerJson(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
        return;
      }
      address = route.address();
      if (hasToolCall && !route.nodeId().equals(nodeId)) {
        // a draining node waits for these too: its client's connection carries the answer
        metrics.relayStarted();
        ctx.addEndHandler(ar -> metrics.relayEnded());
      }
    }
    // a tool call streams progress over SSE when the client accepts it
    boolean sse = hasToolCall && TransportRules.acceptsSse(req);
    String streamId = sse ? openStream(ctx.response(), sid) : null;
    if (streamId != null && remote(route)) {
      relayed(streamId, route, messages.stream().map(JsonRpc::idOf).filter(java.util.Objects::nonNull).toList());
    }
    dev.sluice.tracing.Tracing.process().propagate(ctx, messages);
    JsonObject op = JsonFields.object(9).put("op", "post").put("sessionId", sid).put("principal", rules.principal(req))
        .put("messages", messages)
        .put("batch", batch).put("sse", sse).put("target", streamAddress).put("streamId", streamId);
    tracked(route, ctx, streamId, LocalShards.request(vertx, address, op, BUS_TIMEOUT_MS))
        .onSuccess(reply -> answerPost(ctx, reply, streamId))
        .onFailure(err -> busFailure(ctx, err, streamId));
  }

  private void answerPost(RoutingContext ctx, JsonObject reply, String streamId) {
    if (ctx.response().ended()) {
      return; // answered already: its owner node left the cluster
    }
    int status = reply.getInteger("status");
    if (reply.getBoolean("sse", false)) {
      SseSink sink = streams.get(streamId);
      if (sink != null) {
        sink.start();
        metrics.httpRequest("POST", 200);
        if (reply.getBoolean("empty", false)) {
          streamEvent(streamId, new JsonObject().put("streamId", streamId).put("end", true));
        }
      }
      return;
    }
    dropStream(streamId);
    HttpServerResponse res = ctx.response();
    if (reply.containsKey("sessionId")) {
      res.putHeader("Mcp-Session-Id", reply.getString("sessionId"));
    }
    if (status == 202) {
      metrics.httpRequest("POST", 202);
      res.setStatusCode(202).end();
    } else if (reply.getValue("body") != null) {
      answerJson(ctx, status, reply.getValue("body"));
    } else {
      reject(ctx, new TransportRules.Rejection(status, reply.getString("error", "error")), null);
    }
  }

  // ---- GET / DELETE --------------------------------------------------------------------------

  private void get(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.getAccept(req), TransportRules.protocolVersion(req));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    McpBus.Route route = sessionRoute(ctx);
    if (route == null) {
      return;
    }
    String streamId = openStream(ctx.response(), req.getHeader("Mcp-Session-Id"));
    if (remote(route)) {
      relayed(streamId, route, List.of());
    }
    JsonObject op = new JsonObject().put("op", "get").put("sessionId", req.getHeader("Mcp-Session-Id"))
        .put("principal", rules.principal(req))
        .put("target", streamAddress).put("streamId", streamId)
        .put("lastEventId", req.getHeader("Last-Event-ID"));
    tracked(route, ctx, streamId, vertx.eventBus().<JsonObject>request(route.address(), op))
        .onSuccess(reply -> {
          int status = reply.body().getInteger("status");
          if (status == 200) {
            metrics.httpRequest("GET", 200);
            SseSink sink = streams.get(streamId);
            if (sink != null) {
              sink.start();
            }
          } else {
            dropStream(streamId);
            reply(ctx, status, reply.body());
          }
        })
        .onFailure(err -> busFailure(ctx, err, streamId));
  }

  private void delete(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.protocolVersion(req));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    McpBus.Route route = sessionRoute(ctx);
    if (route == null) {
      return;
    }
    JsonObject op = new JsonObject().put("op", "delete").put("sessionId", req.getHeader("Mcp-Session-Id"))
        .put("principal", rules.principal(req));
    tracked(route, ctx, null, vertx.eventBus().<JsonObject>request(route.address(), op))
        .onSuccess(reply -> {
          if (ctx.response().ended()) {
            return;
          }
          int status = reply.body().getInteger("status");
          if (status == 200) {
            metrics.httpRequest("DELETE", 200);
            ctx.response().setStatusCode(200).end();
          } else {
            reply(ctx, status, reply.body());
          }
        })
        .onFailure(err -> busFailure(ctx, err, null));
  }

  private McpBus.Route sessionRoute(RoutingContext ctx) {
    String sid = ctx.request().getHeader("Mcp-Session-Id");
    if (sid == null) {
      answerJson(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required"));
      return null;
    }
    McpBus.Route route = McpBus.route(sid);
    if (route == null || goneNodes.contains(route.nodeId())) {
      answerJson(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
      return null;
    }
    return route;
  }

  // ---- SSE streams ---------------------------------------------------------------------------

  private String openStream(HttpServerResponse response, String sessionId) {
    // unique across instances: one session may hold streams on several HTTP verticles
    String id = streamPrefix + (++streamSeq);
    SseSink sink = sse.open(response);
    streams.put(id, sink);
    metrics.sseOpened();
    response.closeHandler(v -> {
      relays.remove(id);
      if (streams.remove(id) != null) {
        metrics.sseClosed();
        sink.markClosed();
        detach(sessionId, id);
      }
    });
    return id;
  }

  /** Tells the owning shard the client went away, so later events are kept for replay. */
  private void detach(String sessionId, String streamId) {
    McpBus.Route route = McpBus.route(sessionId);
    if (route != null) {
      vertx.eventBus().send(route.address(), new JsonObject().put("op", "detach")
          .put("sessionId", sessionId).put("streamId", streamId));
    }
  }

  private void dropStream(String streamId) {
    if (streamId != null && streams.remove(streamId) != null) {
      relays.remove(streamId);
      metrics.sseClosed();
    }
  }

  /** Keeps a request forwarded to another node answerable should that node leave before it replies. */
  private <T> Future<T> tracked(McpBus.Route route, RoutingContext ctx, String streamId, Future<T> reply) {
    if (!remote(route)) {
      return reply;
    }
    long key = ++forwardSeq;
    forwards.put(key, new Forward(route.nodeId(), ctx, streamId));
    return reply.onComplete(ar -> forwards.remove(key));
  }

  /** Notes a stream whose events come from a session another node holds. */
  private void relayed(String streamId, McpBus.Route route, List<Object> requestIds) {
    relays.put(streamId, new Relay(route.nodeId(), requestIds));
  }

  /** True when {@code route} names a session held on another node (null: a new session, held here). */
  private boolean remote(McpBus.Route route) {
    return route != null && !route.nodeId().equals(nodeId);
  }

  /**
   * The node owning some of the sessions relayed here left the cluster (crashed or was killed): its
   * calls will never answer. Each one gets an error now and its stream ends, instead of hanging
   * until the client gives up; the session's next request answers 404 and the client re-initializes.
   */
  private void ownerLeft(String deadNode) {
    goneNodes.add(deadNode);
    for (Map.Entry<Long, Forward> e : List.copyOf(forwards.entrySet())) {
      Forward f = e.getValue();
      if (f.ownerNode().equals(deadNode) && (f.streamId() == null || !relays.containsKey(f.streamId()))) {
        forwards.remove(e.getKey());
        dropStream(f.streamId());
        answerJson(f.ctx(), 404, JsonRpc.error(null, -32001, "Session not found: the node that held it left "
            + "the cluster; initialize a new session"));
      }
    }
    for (Map.Entry<String, Relay> e : List.copyOf(relays.entrySet())) {
      if (!e.getValue().ownerNode().equals(deadNode)) {
        continue;
      }
      SseSink sink = streams.get(e.getKey());
      if (sink != null) {
        for (Object id : e.getValue().requestIds()) {
          sink.event(null, JsonRpc.error(id, -32001, "The node serving this session left the cluster while the "
              + "request ran; its outcome is unknown. Initialize a new session and retry"));
        }
      }
      streamEvent(e.getKey(), new JsonObject().put("streamId", e.getKey()).put("end", true));
    }
  }

  private void streamEvent(Message<JsonObject> msg) {
    streamEvent(msg.body().getString("streamId"), msg.body());
  }

  private void streamEvent(String id, JsonObject ev) {
    SseSink sink = streams.get(id);
    if (sink == null) {
      return;
    }
    if (ev.getBoolean("end", false)) {
      streams.remove(id);
      relays.remove(id);
      metrics.sseClosed();
      sink.end();
      return;
    }
    if (ev.containsKey("retryMs")) {
      sink.priming(ev.getString("eventId"), ev.getLong("retryMs"));
      return;
    }
    sink.event(ev.getString("eventId"), ev.getJsonObject("message"));
  }

  // ---- /health and /metrics ------------------------------------------------------------------

  private void health(RoutingContext ctx) {
    TransportRules.Rejection r = firstOf(rules.host(ctx.request()), rules.origin(ctx.request()));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    health.get().onComplete(ar -> {
      JsonObject body = ar.succeeded() ? ar.result()
          : new JsonObject().put("status", "error").put("error", String.valueOf(ar.cause().getMessage()));
      boolean leaving = draining.getAsBoolean();
      if (leaving) {
        body.put("status", "draining");
      }
      // 503 while draining, so a load balancer's health check takes the node out of rotation
      ctx.response().setStatusCode(leaving ? 503 : 200).putHeader("Content-Type", "application/json").end(body.encode());
    });
  }

  private void metrics(RoutingContext ctx) {
    TransportRules.Rejection r = firstOf(rules.host(ctx.request()), rules.origin(ctx.request()),
        rules.token(ctx.request()));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    ctx.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        .end(metrics.scrape());
  }

  // ---- replies -------------------------------------------------------------------------------

  private void busFailure(RoutingContext ctx, Throwable err, String streamId) {
    dropStream(streamId);
    TransportLog.error("http", ctx.request().getHeader("Mcp-Session-Id"), "bus", err.toString());
    if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
      // the owner node of this session is gone: the client re-initializes (transport spec)
      answerJson(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
    } else {
      answerJson(ctx, 500, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "Internal error"));
    }
  }

  private void reply(RoutingContext ctx, int status, JsonObject shardReply) {
    if (ctx.response().ended()) {
      return;
    }
    if (shardReply.getValue("body") != null) {
      answerJson(ctx, status, shardReply.getValue("body"));
    } else {
      reject(ctx, new TransportRules.Rejection(status, shardReply.getString("error", "error")), null);
    }
  }

  private void answerJson(RoutingContext ctx, int status, Object body) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    metrics.httpRequest(ctx.request().method().name(), status);
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
        .end(JsonBytes.buffer(body));
  }

  private void reject(RoutingContext ctx, TransportRules.Rejection r, String allow) {
    if (allow != null) {
      ctx.response().putHeader("Allow", allow);
    }
    if (r.status() == 401) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
    }
    if (r.status() == 401 || r.status() == 403) {
      // who was turned away, and why; never the credentials themselves
      audit.record(AuditRecords.refused(nodeId, ctx.request().method().name(), ctx.request().path(),
          String.valueOf(ctx.request().remoteAddress()), r.status(), r.message()));
    }
    answerJson(ctx, r.status(), JsonRpc.error(null, r.status() == 400 ? JsonRpc.INVALID_REQUEST : -32000,
        r.message()));
  }

  private static TransportRules.Rejection firstOf(TransportRules.Rejection... checks) {
    for (TransportRules.Rejection r : checks) {
      if (r != null) {
        return r;
      }
    }
    return null;
  }
}
