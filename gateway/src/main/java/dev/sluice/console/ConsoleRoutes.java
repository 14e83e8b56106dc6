package dev.sluice.console;

import dev.sluice.access.Principals;
import dev.sluice.audit.AuditTrail;
import dev.sluice.http.TransportRules;
import dev.sluice.mcp.McpBus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The operator's console: the page at /console (its assets come from the jar, nothing from a CDN)
 * and the admin JSON API it reads, which scripts may use too (docs/console.md). Every route is
 * behind {@link ConsoleGuard}. One instance per HTTP verticle.
 */
public final class ConsoleRoutes {

  /** A cancel request is two ids; anything larger is not one. */
  static final long MAX_BODY_BYTES = 4_096;
  static final long CANCEL_TIMEOUT_MS = 5_000;

  private final Vertx vertx;
  private final String nodeId;
  private final ConsoleGuard guard;
  private final Census census;
  private final LiveFeed feed;
  private final History history;
  private final dev.sluice.observability.CallRing ring;

  /**
   * @param localShards session shards on this node (a single node's census waits for all of them)
   */
  public ConsoleRoutes(Vertx vertx, String nodeId, int localShards, TransportRules rules, Principals principals,
      AuditTrail audit, long slowCallMs, dev.sluice.observability.CallRing ring) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.guard = new ConsoleGuard(rules, principals, audit, nodeId);
    this.census = new Census(vertx, nodeId, localShards);
    this.feed = new LiveFeed(vertx, census, () -> charts(ring));
    this.ring = ring;
    this.history = new History(vertx, audit.dir(), slowCallMs);
  }

  /** Adds the console's routes; call before any catch-all route. */
  public Future<Void> mount(Router router) {
    router.route("/console").handler(guard);
    router.route("/console/*").handler(guard);
    router.get("/console").handler(ctx -> ctx.reroute("/console/assets/index.html"));
    router.get("/console/assets/*").handler(StaticHandler.create("console")
        .setIndexPage("index.html").setDirectoryListing(false).setCachingEnabled(false));
    router.get("/console/api/overview").handler(this::overview);
    router.get("/console/api/live").handler(ctx -> census.take().onComplete(ar -> answer(ctx, ar)));
    router.get("/console/api/stream").handler(ctx -> feed.open(ctx.response()));
    router.post("/console/api/cancel").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
        .handler(this::cancel);
    router.get("/console/api/history").handler(this::history);
    router.get("/console/api/connections").handler(ctx -> vertx.eventBus().<JsonObject>request(
            ConsoleBus.CONNECTIONS, new JsonObject()).map(m -> m.body().put("node", nodeId))
        .onComplete(ar -> answer(ctx, ar)));
    router.post("/console/api/rescan").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
        .handler(this::rescan);
    router.get("/console/api/charts").handler(ctx -> json(ctx, 200, charts(ring)));
    router.get("/console/api/limits").handler(ctx -> vertx.eventBus().<JsonObject>request(ConsoleBus.LIMITS,
            new JsonObject()).map(m -> m.body().put("node", nodeId)).onComplete(ar -> answer(ctx, ar)));
    router.route("/console/api/*").handler(ctx -> error(ctx, 404, "no such console API: "
        + ctx.request().method() + " " + ctx.request().path() + " (see docs/console.md)"));
    feed.start();
    return census.start();
  }

  private JsonObject charts(dev.sluice.observability.CallRing ring) {
    return ring.snapshot().put("node", nodeId);
  }

  public void stop() {
    feed.stop();
  }

  private void overview(RoutingContext ctx) {
    census.take().onComplete(ar -> answer(ctx, ar.map(live -> new JsonObject()
        .put("node", nodeId).put("nodes", live.getJsonArray("nodes"))
        .put("operator", ctx.<String>get(ConsoleGuard.OPERATOR))
        .put("version", dev.sluice.gateway.Gateway.VERSION)
        .put("slowCallMs", history.slowCallMs())
        .put("sessions", live.getJsonArray("sessions").size())
        .put("callsInFlight", live.getJsonArray("calls").size()))));
  }

  /**
   * {@code {sessionId, callId}}: the call is cancelled on the node and shard that own the session;
   * {@code {statelessId}}: the stateless call is cancelled on the node that runs it.
   */
  private void cancel(RoutingContext ctx) {
    String ct = ctx.request().getHeader("Content-Type");
    if (ct == null || !ct.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      error(ctx, 415, "send the cancel request as application/json: {\"sessionId\": ..., \"callId\": ...}"
          + " or {\"statelessId\": ...}");
      return;
    }
    JsonObject body;
    try {
      body = ctx.body().asJsonObject();
    } catch (DecodeException | ClassCastException e) {
      body = null;
    }
    if (body != null && body.containsKey("statelessId")) {
      cancelStateless(ctx, body.getValue("statelessId") instanceof String s ? s : null);
      return;
    }
    String sessionId = body == null ? null : body.getValue("sessionId") instanceof String s ? s : null;
    Object callId = body == null ? null : body.getValue("callId");
    McpBus.Route route = McpBus.route(sessionId);
    if (route == null || !(callId instanceof String || callId instanceof Number)) {
      error(ctx, 400, "the body must be {\"sessionId\": \"<a session id from /console/api/live>\", "
          + "\"callId\": \"<its call's id>\"} or, for a stateless call, {\"statelessId\": \"<its statelessId>\"}");
      return;
    }
    JsonObject op = new JsonObject().put("sessionId", sessionId).put("callId", String.valueOf(callId))
        .put("by", ctx.<String>get(ConsoleGuard.OPERATOR));
    askToCancel(ctx, ConsoleBus.cancel(route.nodeId(), route.shard()), op,
        new JsonObject().put("sessionId", sessionId).put("callId", String.valueOf(callId)),
        "node " + route.nodeId() + " that owns this session is not in the cluster");
  }

  private void cancelStateless(RoutingContext ctx, String statelessId) {
    String node = ConsoleBus.nodeOfStateless(statelessId);
    if (node == null) {
      error(ctx, 400, "the body must be {\"statelessId\": \"<a stateless call's statelessId from /console/api/live>\"}");
      return;
    }
    askToCancel(ctx, ConsoleBus.cancelStateless(node), new JsonObject().put("statelessId", statelessId)
            .put("by", ctx.<String>get(ConsoleGuard.OPERATOR)), new JsonObject().put("statelessId", statelessId),
        "node " + node + " that runs this call is not in the cluster");
  }

  private void askToCancel(RoutingContext ctx, String address, JsonObject op, JsonObject ids, String nodeGone) {
    vertx.eventBus().<JsonObject>request(address, op, new DeliveryOptions().setSendTimeout(CANCEL_TIMEOUT_MS))
        .onSuccess(reply -> {
          JsonObject r = reply.body();
          if (r.getBoolean("cancelled", false)) {
            json(ctx, 200, r.mergeIn(ids));
          } else {
            error(ctx, 404, r.getString("reason"));
          }
        })
        .onFailure(err -> {
          boolean gone = err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS;
          error(ctx, gone ? 404 : 502, gone ? nodeGone : err.getMessage());
        });
  }

  /**
   * {@code {connectionId}}: starts a catalog scan on this node (or joins the running one) and answers
   * 202 at once; the scan's progress and outcome show in /console/api/connections.
   */
  private void rescan(RoutingContext ctx) {
    JsonObject body = jsonBody(ctx);
    if (body == null) {
      return;
    }
    vertx.eventBus().<JsonObject>request(ConsoleBus.RESCAN, new JsonObject()
            .put("connectionId", body.getValue("connectionId") instanceof String s ? s : null))
        .onSuccess(m -> json(ctx, 202, m.body()))
        .onFailure(err -> error(ctx, err instanceof ReplyException re && re.failureCode() == 400 ? 400 : 500,
            err.getMessage()));
  }

  /** The request's JSON object body, or null after answering 415/400. */
  private static JsonObject jsonBody(RoutingContext ctx) {
    String ct = ctx.request().getHeader("Content-Type");
    if (ct == null || !ct.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      error(ctx, 415, "send the request body as application/json");
      return null;
    }
    try {
      JsonObject body = ctx.body().asJsonObject();
      if (body == null) {
        error(ctx, 400, "the request needs a JSON object body");
      }
      return body;
    } catch (DecodeException | ClassCastException e) {
      error(ctx, 400, "the request body is not a JSON object");
      return null;
    }
  }

  private void history(RoutingContext ctx) {
    History.Filter f;
    try {
      f = History.Filter.of(ctx.queryParams(), history.slowCallMs());
    } catch (IllegalArgumentException e) {
      error(ctx, 400, e.getMessage());
      return;
    }
    history.read(f).onComplete(ar -> answer(ctx, ar));
  }

  private static void answer(RoutingContext ctx, io.vertx.core.AsyncResult<JsonObject> ar) {
    if (ar.succeeded()) {
      json(ctx, 200, ar.result());
    } else {
      dev.sluice.observability.TransportLog.error("http", null, "console", ar.cause().toString());
      error(ctx, 500, String.valueOf(ar.cause()));
    }
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    if (!ctx.response().ended() && !ctx.response().closed()) {
      ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }
  }

  private static void error(RoutingContext ctx, int status, String message) {
    json(ctx, status, new JsonObject().put("error", new JsonObject().put("status", status).put("message", message)));
  }
}
