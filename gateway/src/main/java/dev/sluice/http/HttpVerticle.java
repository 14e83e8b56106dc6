package dev.sluice.http;

import dev.sluice.bus.JsonFields;
import dev.sluice.access.Principals;
import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.bus.ByReferenceJson;
import dev.sluice.bus.JsonBytes;
import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.EventStream;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.LocalShards;
import dev.sluice.mcp.McpBus;
import dev.sluice.mcp.stateless.StatelessHandler;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.observability.TransportLog;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.internal.net.RFC3986;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.opentelemetry.api.trace.Span;
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

  private record Forward(String ownerNode, HttpServerRequest req, String streamId) {}
  private final String streamAddress = "sluice.http." + UUID.randomUUID();
  private final String streamPrefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private long streamSeq;
  private HttpServer httpServer;
  private MessageConsumer<JsonObject> eventConsumer;
  private long keepAliveTimer;
  /** POST bodies this loop is still reading, refused at server.body_timeout_ms. */
  private PostBody.InFlight bodies;
  private long bodySweep;
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
    router.get("/mcp").handler(ctx -> get(ctx.request()));
    router.delete("/mcp").handler(ctx -> delete(ctx.request()));
    // transport spec: any other method on the MCP endpoint is 405
    router.route("/mcp").handler(ctx -> reject(ctx.request(), new TransportRules.Rejection(405,
        "Method Not Allowed"), "GET, POST, DELETE"));
    router.get("/health").handler(ctx -> health(ctx.request()));
    router.get("/metrics").handler(ctx -> metrics(ctx.request()));
    console = new dev.sluice.console.ConsoleRoutes(vertx, nodeId, shards, rules, principals, audit,
        server.slowCallMs(), metrics.callRing());
    Future<Void> consoleMounted = console.mount(router);
    // cluster-wide: a session owned by another node streams its events back here
    eventConsumer = vertx.eventBus().consumer(streamAddress, this::streamEvent);
    // and this node's shards hand them over without the bus
    EventStream.HTTP.register(vertx, streamAddress, context,
        ev -> streamEvent(ev.getString("streamId"), ev));
    vertx.eventBus().<String>localConsumer(McpBus.NODE_LEFT, m -> ownerLeft(m.body()));
    vertx.eventBus().<String>localConsumer(McpBus.NODE_JOINED, m -> goneNodes.remove(m.body()));
    keepAliveTimer = vertx.setPeriodic(SseSink.KEEPALIVE_TICK_MS, t -> {
      long now = System.currentTimeMillis();
      streams.values().forEach(s -> s.keepAliveIfDue(now));
    });
    bodies = new PostBody.InFlight(server.bodyTimeoutMs());
    bodySweep = vertx.setPeriodic(bodies.sweepEveryMs(), t -> bodies.expire(System.currentTimeMillis()));
    stateless = statelessHandlers.get();
    statelessPost = new StatelessPost(stateless, rules, metrics, sse, streams, draining, streamPrefix);
    return eventConsumer.completion()
        .compose(v -> consoleMounted)
        .compose(v -> stateless.start())
        .compose(v -> vertx.createHttpServer(new HttpServerOptions()
                .setHost(server.host()).setPort(server.port())
                .setCompressionSupported(false)
                .setIdleTimeout(0))
            .requestHandler(req -> {
              // the MCP POST, every call's path, skips the web router and its body handler: they
              // were 1.2 of the 17.8 KB a call allocated (docs/performance.md)
              if (req.method() == HttpMethod.POST && isMcpPath(req.path())) {
                post(req);
              } else {
                router.handle(req);
              }
            })
            // a connection that broke mid-request or mid-stream (reset, TLS, HTTP framing)
            .exceptionHandler(e -> TransportLog.error("http", null, "connection", e.toString()))
            .listen())
        .onSuccess(s -> httpServer = s);
  }

  @Override
  public Future<?> stop() {
    EventStream.HTTP.unregister(vertx, streamAddress);
    vertx.cancelTimer(keepAliveTimer);
    vertx.cancelTimer(bodySweep);
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

  private void post(HttpServerRequest req) {
    Span span = dev.sluice.tracing.Tracing.process().serverSpan(req);
    if (span != null) {
      req.response().endHandler(v -> endSpan(span, req.response()));
    }
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.contentType(req), TransportRules.postAccept(req));
    if (r != null) {
      reject(req, r, null);
      return;
    }
    PostBody.read(req, server.maxBodyBytes(), bodies, body -> post(req, span, body), status -> refuseBody(req, status));
  }

  private void post(HttpServerRequest req, Span span, Buffer body) {
    Object parsed;
    try {
      parsed = JsonBytes.decode(body);
    } catch (DecodeException e) {
      TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "parse", "POST body is not valid JSON");
      answerJson(req, 400, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: body is not valid JSON"));
      return;
    }
    if (JsonRpc.kind(parsed) != JsonRpc.Kind.INVALID && StatelessPost.applies(req, parsed)) {
      // 2026-07-28: the request describes itself; this loop answers it, no session, no bus hop
      statelessPost.post(req, (JsonObject) parsed);
      return;
    }
    TransportRules.Rejection version = TransportRules.protocolVersion(req);
    if (version != null) {
      reject(req, version, null);
      return;
    }
    boolean batch = parsed instanceof JsonArray;
    JsonArray messages = batch ? (JsonArray) parsed : new JsonArray().add(parsed);
    if (messages.isEmpty()) {
      TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "invalid_request", "empty JSON-RPC batch");
      answerJson(req, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid Request: empty batch"));
      return;
    }
    boolean hasToolCall = false;
    for (Object m : messages) {
      if (JsonRpc.kind(m) == JsonRpc.Kind.INVALID) {
        TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "invalid_request",
            "not a JSON-RPC 2.0 request, notification or response");
        answerJson(req, 400, JsonRpc.error(JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST,
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
      req.response().putHeader("Retry-After", "1");
      answerJson(req, 503, JsonRpc.error(JsonRpc.idOf(messages.getValue(0)), -32000,
          "This node is draining (shutting down) and takes no new sessions; retry, and the load balancer "
              + "sends you to another node"));
      return;
    }
    if (sid == null) {
      address = McpBus.shard(nodeId, Math.floorMod(INITIALIZE_ROUND_ROBIN.getAndIncrement(), shards));
    } else {
      route = McpBus.route(sid);
      if (route == null || goneNodes.contains(route.nodeId())) {
        answerJson(req, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
        return;
      }
      address = route.address();
      if (hasToolCall && !route.nodeId().equals(nodeId)) {
        // a draining node waits for these too: its client's connection carries the answer
        metrics.relayStarted();
        req.response().endHandler(v -> {
          metrics.relayEnded();
          if (span != null) {
            endSpan(span, req.response());
          }
        });
      }
    }
    // a tool call streams progress over SSE when the client accepts it
    boolean sse = hasToolCall && TransportRules.acceptsSse(req);
    String streamId = sse ? openStream(req.response(), sid) : null;
    if (streamId != null && remote(route)) {
      relayed(streamId, route, messages.stream().map(JsonRpc::idOf).filter(java.util.Objects::nonNull).toList());
    }
    dev.sluice.tracing.Tracing.process().propagate(span, messages);
    JsonObject op = JsonFields.object(9).put("op", "post").put("sessionId", sid).put("principal", rules.principal(req))
        .put("messages", messages)
        .put("batch", batch).put("sse", sse).put("target", streamAddress).put("streamId", streamId);
    tracked(route, req, streamId, LocalShards.request(vertx, address, op, BUS_TIMEOUT_MS))
        .onSuccess(reply -> answerPost(req, reply, streamId))
        .onFailure(err -> busFailure(req, err, streamId));
  }

  /**
   * The body is not read ({@link PostBody}): 413 over server.max_body_bytes, 417 for an expectation
   * other than 100-continue, 408 when it was not complete within server.body_timeout_ms. The
   * connection closes after the answer; after a 413, once the rest of the body has arrived
   * ({@link PostBody#closeAfterRest}).
   */
  private void refuseBody(HttpServerRequest req, int status) {
    String message = switch (status) {
      case 413 -> "Payload Too Large: the body exceeds server.max_body_bytes (" + server.maxBodyBytes() + " bytes)";
      case 408 -> "Request Timeout: the body was not complete within server.body_timeout_ms ("
          + server.bodyTimeoutMs() + " ms)";
      default -> "Expectation Failed: only Expect: 100-continue is supported";
    };
    TransportLog.error("http", req.getHeader("Mcp-Session-Id"),
        status == 413 ? "too_large" : status == 408 ? "body_timeout" : "expectation", message);
    Future<Void> sent = JsonAnswer.answer(req, metrics, status, JsonRpc.error(null, -32000, message), true);
    if (sent != null) {
      // a client may still be sending the body refused for its size: it is let finish (within
      // bounds) so that the close does not reset the connection under the 413
      sent.onComplete(ar -> {
        if (status == 413) {
          PostBody.closeAfterRest(req, vertx, server.bodyTimeoutMs());
        } else {
          req.connection().close();
        }
      });
    }
  }

  /**
   * Whether the web router would have matched {@code path} to "/mcp": that spelling, or any that
   * normalizes to it, with or without a trailing slash.
   */
  static boolean isMcpPath(String path) {
    if ("/mcp".equals(path)) {
      return true;
    }
    String normal = path == null ? "/" : RFC3986.normalizePath(path);
    return "/mcp".equals(normal) || "/mcp/".equals(normal);
  }

  private void endSpan(Span span, HttpServerResponse res) {
    dev.sluice.tracing.Tracing.process().endServerSpan(span, res, !res.ended());
  }

  private void answerPost(HttpServerRequest req, JsonObject reply, String streamId) {
    if (req.response().ended()) {
      return; // answered already: its owner node left the cluster
    }
    int status = reply.getInteger("status");
    if (reply.getBoolean("sse", false)) {
      SseSink sink = streams.get(streamId);
      if (sink != null) {
        sink.start();
        if (reply.getBoolean("late", false)) {
          // the calls have run for the shard's delay already: what they said is not held again
          sink.prompt();
        }
        metrics.httpRequest("POST", 200);
        if (reply.getBoolean("empty", false)) {
          streamEvent(streamId, new JsonObject().put("streamId", streamId).put("end", true));
        }
      }
      return;
    }
    dropStream(streamId);
    HttpServerResponse res = req.response();
    if (reply.containsKey("sessionId")) {
      res.putHeader("Mcp-Session-Id", reply.getString("sessionId"));
    }
    if (status == 202) {
      metrics.httpRequest("POST", 202);
      res.setStatusCode(202).end();
    } else if (reply.getValue("body") != null) {
      answerJson(req, status, reply.getValue("body"));
    } else {
      reject(req, new TransportRules.Rejection(status, reply.getString("error", "error")), null);
    }
  }

  // ---- GET / DELETE --------------------------------------------------------------------------

  private void get(HttpServerRequest req) {
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.getAccept(req), TransportRules.protocolVersion(req));
    if (r != null) {
      reject(req, r, null);
      return;
    }
    McpBus.Route route = sessionRoute(req);
    if (route == null) {
      return;
    }
    String streamId = openStream(req.response(), req.getHeader("Mcp-Session-Id"));
    if (remote(route)) {
      relayed(streamId, route, List.of());
    }
    JsonObject op = new JsonObject().put("op", "get").put("sessionId", req.getHeader("Mcp-Session-Id"))
        .put("principal", rules.principal(req))
        .put("target", streamAddress).put("streamId", streamId)
        .put("lastEventId", req.getHeader("Last-Event-ID"));
    tracked(route, req, streamId, vertx.eventBus().<JsonObject>request(route.address(), op))
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
            reply(req, status, reply.body());
          }
        })
        .onFailure(err -> busFailure(req, err, streamId));
  }

  private void delete(HttpServerRequest req) {
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.protocolVersion(req));
    if (r != null) {
      reject(req, r, null);
      return;
    }
    McpBus.Route route = sessionRoute(req);
    if (route == null) {
      return;
    }
    JsonObject op = new JsonObject().put("op", "delete").put("sessionId", req.getHeader("Mcp-Session-Id"))
        .put("principal", rules.principal(req));
    tracked(route, req, null, vertx.eventBus().<JsonObject>request(route.address(), op))
        .onSuccess(reply -> {
          if (req.response().ended()) {
            return;
          }
          int status = reply.body().getInteger("status");
          if (status == 200) {
            metrics.httpRequest("DELETE", 200);
            req.response().setStatusCode(200).end();
          } else {
            reply(req, status, reply.body());
          }
        })
        .onFailure(err -> busFailure(req, err, null));
  }

  private McpBus.Route sessionRoute(HttpServerRequest req) {
    String sid = req.getHeader("Mcp-Session-Id");
    if (sid == null) {
      answerJson(req, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required"));
      return null;
    }
    McpBus.Route route = McpBus.route(sid);
    if (route == null || goneNodes.contains(route.nodeId())) {
      answerJson(req, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
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
  private <T> Future<T> tracked(McpBus.Route route, HttpServerRequest req, String streamId, Future<T> reply) {
    if (!remote(route)) {
      return reply;
    }
    long key = ++forwardSeq;
    forwards.put(key, new Forward(route.nodeId(), req, streamId));
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
        answerJson(f.req(), 404, JsonRpc.error(null, -32001, "Session not found: the node that held it left "
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

  private void health(HttpServerRequest req) {
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req));
    if (r != null) {
      reject(req, r, null);
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
      req.response().setStatusCode(leaving ? 503 : 200).putHeader("Content-Type", "application/json").end(body.encode());
    });
  }

  private void metrics(HttpServerRequest req) {
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req),
        rules.token(req));
    if (r != null) {
      reject(req, r, null);
      return;
    }
    req.response().putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        .end(metrics.scrape());
  }

  // ---- replies -------------------------------------------------------------------------------

  private void busFailure(HttpServerRequest req, Throwable err, String streamId) {
    dropStream(streamId);
    TransportLog.error("http", req.getHeader("Mcp-Session-Id"), "bus", err.toString());
    if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
      // the owner node of this session is gone: the client re-initializes (transport spec)
      answerJson(req, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
    } else {
      answerJson(req, 500, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "Internal error"));
    }
  }

  private void reply(HttpServerRequest req, int status, JsonObject shardReply) {
    if (req.response().ended()) {
      return;
    }
    if (shardReply.getValue("body") != null) {
      answerJson(req, status, shardReply.getValue("body"));
    } else {
      reject(req, new TransportRules.Rejection(status, shardReply.getString("error", "error")), null);
    }
  }

  private void answerJson(HttpServerRequest req, int status, Object body) {
    JsonAnswer.answer(req, metrics, status, body);
  }

  private void reject(HttpServerRequest req, TransportRules.Rejection r, String allow) {
    if (allow != null) {
      req.response().putHeader("Allow", allow);
    }
    if (r.status() == 401) {
      req.response().putHeader("WWW-Authenticate", "Bearer");
    }
    if (r.status() == 401 || r.status() == 403) {
      // who was turned away, and why; never the credentials themselves
      audit.record(AuditRecords.refused(nodeId, req.method().name(), req.path(),
          String.valueOf(req.remoteAddress()), r.status(), r.message()));
    }
    answerJson(req, r.status(), JsonRpc.error(null, r.status() == 400 ? JsonRpc.INVALID_REQUEST : -32000,
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
