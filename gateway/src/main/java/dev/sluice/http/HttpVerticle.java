package dev.sluice.http;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.McpBus;
import dev.sluice.observability.GatewayMetrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
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
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The Streamable HTTP front (/mcp) plus /health and /metrics. One instance per event loop; holds
 * no session state: each MCP message is forwarded over the event bus to the shard that owns the
 * session (see {@link McpBus}), and SSE events come back to this instance's stream address.
 */
public final class HttpVerticle extends VerticleBase {

  /** Longest a POST waits for its answer; tool deadlines are far shorter, this only bounds leaks. */
  private static final long BUS_TIMEOUT_MS = 15 * 60 * 1000L;
  private static final long KEEPALIVE_MS = 20_000;
  private static final AtomicInteger INITIALIZE_ROUND_ROBIN = new AtomicInteger();

  private final ServerConfig server;
  private final String nodeId;
  private final int shards;
  private final GatewayMetrics metrics;
  private final Supplier<Future<JsonObject>> health;
  private final TransportRules rules;
  private final Map<String, SseSink> streams = new HashMap<>();
  private final String streamAddress = "sluice.http." + UUID.randomUUID();
  private final String streamPrefix = UUID.randomUUID().toString().substring(0, 8) + "-";
  private long streamSeq;
  private HttpServer httpServer;
  private MessageConsumer<JsonObject> eventConsumer;
  private long keepAliveTimer;

  public HttpVerticle(ServerConfig server, String nodeId, int shards, GatewayMetrics metrics,
      Supplier<Future<JsonObject>> health) {
    this.server = server;
    this.nodeId = nodeId;
    this.shards = shards;
    this.metrics = metrics;
    this.health = health;
    this.rules = new TransportRules(server);
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route("/mcp").method(HttpMethod.POST)
        .handler(BodyHandler.create(false).setBodyLimit(server.maxBodyBytes()))
        .handler(this::post);
    router.get("/mcp").handler(this::get);
    router.delete("/mcp").handler(this::delete);
    // transport spec: any other method on the MCP endpoint is 405
    router.route("/mcp").handler(ctx -> reject(ctx, new TransportRules.Rejection(405,
        "Method Not Allowed"), "GET, POST, DELETE"));
    router.get("/health").handler(this::health);
    router.get("/metrics").handler(this::metrics);
    eventConsumer = vertx.eventBus().localConsumer(streamAddress, this::streamEvent);
    keepAliveTimer = vertx.setPeriodic(KEEPALIVE_MS, t -> streams.values().forEach(SseSink::keepAlive));
    return eventConsumer.completion()
        .compose(v -> vertx.createHttpServer(new HttpServerOptions()
                .setHost(server.host()).setPort(server.port())
                .setCompressionSupported(false)
                .setIdleTimeout(0))
            .requestHandler(router)
            .listen())
        .onSuccess(s -> httpServer = s);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(keepAliveTimer);
    return httpServer == null ? Future.succeededFuture() : httpServer.close();
  }

  public int actualPort() {
    return httpServer.actualPort();
  }

  // ---- POST ----------------------------------------------------------------------------------

  private void post(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    TransportRules.Rejection r = firstOf(rules.host(req), rules.origin(req), rules.token(req),
        TransportRules.contentType(req), TransportRules.postAccept(req),
        TransportRules.protocolVersion(req));
    if (r != null) {
      reject(ctx, r, null);
      return;
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(ctx.body().buffer());
    } catch (DecodeException | NullPointerException e) {
      jsonError(ctx, 400, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: body is not valid JSON"));
      return;
    }
    boolean batch = parsed instanceof JsonArray;
    JsonArray messages = batch ? (JsonArray) parsed : new JsonArray().add(parsed);
    if (messages.isEmpty()) {
      jsonError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Invalid Request: empty batch"));
      return;
    }
    boolean hasToolCall = false;
    for (Object m : messages) {
      if (JsonRpc.kind(m) == JsonRpc.Kind.INVALID) {
        jsonError(ctx, 400, JsonRpc.error(JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST,
            "Invalid Request: not a JSON-RPC 2.0 request, notification or response"));
        return;
      }
      hasToolCall |= "tools/call".equals(((JsonObject) m).getString("method"));
    }
    String sid = req.getHeader("Mcp-Session-Id");
    String address;
    if (sid == null) {
      address = McpBus.shard(nodeId, Math.floorMod(INITIALIZE_ROUND_ROBIN.getAndIncrement(), shards));
    } else {
      McpBus.Route route = McpBus.route(sid);
      if (route == null) {
        jsonError(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
        return;
      }
      address = route.address();
    }
    // a tool call streams progress over SSE when the client accepts it
    boolean sse = hasToolCall && TransportRules.acceptsSse(req);
    String streamId = sse ? openStream(ctx.response(), sid) : null;
    JsonObject op = new JsonObject().put("op", "post").put("sessionId", sid).put("messages", messages)
        .put("batch", batch).put("sse", sse).put("target", streamAddress).put("streamId", streamId);
    vertx.eventBus().<JsonObject>request(address, op, new DeliveryOptions().setSendTimeout(BUS_TIMEOUT_MS))
        .onSuccess(reply -> answerPost(ctx, reply.body(), streamId))
        .onFailure(err -> busFailure(ctx, err, streamId));
  }

  private void answerPost(RoutingContext ctx, JsonObject reply, String streamId) {
    int status = reply.getInteger("status");
    if (reply.getBoolean("sse", false)) {
      SseSink sink = streams.get(streamId);
      if (sink != null) {
        sink.start();
        metrics.httpRequest("POST", 200);
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
      jsonError(ctx, status, reply.getValue("body"));
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
    JsonObject op = new JsonObject().put("op", "get").put("sessionId", req.getHeader("Mcp-Session-Id"))
        .put("target", streamAddress).put("streamId", streamId)
        .put("lastEventId", req.getHeader("Last-Event-ID"));
    vertx.eventBus().<JsonObject>request(route.address(), op)
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
    JsonObject op = new JsonObject().put("op", "delete").put("sessionId", req.getHeader("Mcp-Session-Id"));
    vertx.eventBus().<JsonObject>request(route.address(), op)
        .onSuccess(reply -> {
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
      jsonError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required"));
      return null;
    }
    McpBus.Route route = McpBus.route(sid);
    if (route == null) {
      jsonError(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
    }
    return route;
  }

  // ---- SSE streams ---------------------------------------------------------------------------

  private String openStream(HttpServerResponse response, String sessionId) {
    // unique across instances: one session may hold streams on several HTTP verticles
    String id = streamPrefix + (++streamSeq);
    SseSink sink = new SseSink(response);
    streams.put(id, sink);
    metrics.sseOpened();
    response.closeHandler(v -> {
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
      metrics.sseClosed();
    }
  }

  private void streamEvent(Message<JsonObject> msg) {
    JsonObject ev = msg.body();
    String id = ev.getString("streamId");
    SseSink sink = streams.get(id);
    if (sink == null) {
      return;
    }
    if (ev.getBoolean("end", false)) {
      streams.remove(id);
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
      ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(body.encode());
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
    if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
      // the owner node of this session is gone: the client re-initializes (transport spec)
      jsonError(ctx, 404, JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
    } else {
      jsonError(ctx, 500, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "Internal error"));
    }
  }

  private void reply(RoutingContext ctx, int status, JsonObject shardReply) {
    if (shardReply.getValue("body") != null) {
      jsonError(ctx, status, shardReply.getValue("body"));
    } else {
      reject(ctx, new TransportRules.Rejection(status, shardReply.getString("error", "error")), null);
    }
  }

  private void jsonError(RoutingContext ctx, int status, Object body) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    metrics.httpRequest(ctx.request().method().name(), status);
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
        .end(Json.encode(body));
  }

  private void reject(RoutingContext ctx, TransportRules.Rejection r, String allow) {
    if (allow != null) {
      ctx.response().putHeader("Allow", allow);
    }
    if (r.status() == 401) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
    }
    jsonError(ctx, r.status(), JsonRpc.error(null, r.status() == 400 ? JsonRpc.INVALID_REQUEST : -32000,
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
