package dev.sluice.mcp;

import dev.sluice.bus.JsonFields;
import dev.sluice.sql.LocalProgress;
import dev.sluice.audit.AuditTrail;
import dev.sluice.bus.ByReferenceJson;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.observability.SessionLog;
import dev.sluice.observability.ToolCallLog;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Owns a share of this node's MCP sessions. Several shards run per node (one per event loop) so
 * session work spreads over cores; each session lives on exactly one shard, named in its id, and
 * all its state is touched only from that shard's event loop. Contract: {@link McpBus}.
 */
public final class SessionShardVerticle extends VerticleBase {

  private static final SecureRandom RANDOM = new SecureRandom();
  /** Reconnect delay suggested to clients whose stream we close (SSE {@code retry:} field). */
  static final long SSE_RETRY_MS = 1_000;
  /**
   * How long a POST's calls may run before its notifications need a stream of their own. It is
   * the SSE writer's own coalescing delay: what was said sooner would have left with the answer.
   */
  static final long STREAM_AFTER_MS = 10;

  private final String nodeId;
  private final AuditTrail audit;
  private final int shard;
  private final McpFeatures features;
  private final GatewayMetrics metrics;
  private final SessionSettings settings;
  private final Map<String, Session> sessions = new HashMap<>();
  private final Map<String, RunningCall> queries = new HashMap<>();
  private McpDispatcher dispatcher;
  private final List<MessageConsumer<?>> consumers = new ArrayList<>();
  private long expiryTimer = -1;
  private ShardConsole console;

  /**
   * @param idleTimeoutMs sessions idle for longer (no request, no call running, no GET stream)
   *     are closed
   * @param replayEvents events kept per stream for Last-Event-ID replay
   * @param maxSessions cap on sessions of this shard; initialize beyond it answers 503
   */
  public record SessionSettings(long idleTimeoutMs, int replayEvents, int maxSessions, long slowCallMs) {}

  public SessionShardVerticle(String nodeId, int shard, AuditTrail audit, McpFeatures features, GatewayMetrics metrics,
      SessionSettings settings) {
    this.nodeId = nodeId;
    this.audit = audit;
    this.shard = shard;
    this.features = features;
    this.metrics = metrics;
    this.settings = settings;
  }

  @Override
  public Future<?> start() {
    ByReferenceJson.register(vertx);
    dispatcher = new McpDispatcher(vertx, features,
        new ToolInvocation(nodeId, audit, features, metrics, new ToolCallLog(settings.slowCallMs())),
        McpBus.shardProgress(nodeId, shard), queries);
    console = new ShardConsole(vertx, nodeId, shard, sessions);
    dispatcher.onCallsChanged(console::changed);
    consumers.addAll(console.start());
    consumers.add(vertx.eventBus().<JsonObject>consumer(McpBus.shard(nodeId, shard),
        m -> handle(new ShardRequest.OverTheBus(m))));
    Handler<JsonObject> progress = p -> {
      RunningCall call = queries.get(p.getString("queryId"));
      if (call != null) {
        call.executorProgress(p);
      }
    };
    // this node's executors hand progress over directly; another node's send it over the bus
    LocalProgress.register(vertx, McpBus.shardProgress(nodeId, shard), context, progress);
    consumers.add(vertx.eventBus().<JsonObject>consumer(McpBus.shardProgress(nodeId, shard),
        msg -> progress.handle(msg.body())));
    consumers.add(vertx.eventBus().<JsonObject>consumer(McpBus.shardNotify(nodeId, shard), msg -> {
      JsonObject b = msg.body();
      Session s = sessions.get(b.getString("sessionId"));
      if (s != null && s.logs(b.getString("level", "info"))) {
        JsonObject params = new JsonObject().put("level", b.getString("level", "info")).put("data", b.getValue("data"));
        if (b.getString("logger") != null) {
          params.put("logger", b.getString("logger"));
        }
        notifySession(s.id, JsonRpc.notification("notifications/message", params));
      }
    }));
    features.tools().onChange(() -> vertx.runOnContext(v -> broadcastListChanged()));
    long period = Math.max(1_000, Math.min(30_000, settings.idleTimeoutMs() / 4));
    expiryTimer = vertx.setPeriodic(period, t -> {
      expireIdle();
      giveUp(System.currentTimeMillis(), ReplyFailure.TIMEOUT, "the session shard did not answer in time");
    });
    LocalShards.SHARDS.register(vertx, McpBus.shard(nodeId, shard), this);
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList());
  }

  @Override
  public Future<?> stop() {
    LocalShards.SHARDS.unregister(vertx, McpBus.shard(nodeId, shard), this);
    LocalProgress.unregister(vertx, McpBus.shardProgress(nodeId, shard));
    vertx.cancelTimer(expiryTimer);
    new ArrayList<>(sessions.values()).forEach(s -> close(s, SessionLog.Reason.SHUTDOWN));
    // its sessions are gone: the callers' clients are told to initialize anew, as by a node that left
    giveUp(Long.MAX_VALUE, ReplyFailure.NO_HANDLERS, "the session shard stopped");
    return Future.succeededFuture();
  }

  /** Requests handed over by {@link LocalShards}, with when their callers stop waiting. */
  private final dev.sluice.bus.HandedOver<JsonObject> handedOver = new dev.sluice.bus.HandedOver<>();

  /** A request from this node's HTTP verticle, handed over without a bus message. */
  void submit(JsonObject op, Promise<JsonObject> answer, long timeoutMs) {
    context.runOnContext(v -> {
      handedOver.add(answer, timeoutMs);
      handle(new HandedOverRequest(op, answer));
    });
  }

  /** Fails the handed-over requests whose callers gave up by {@code now}, as the bus would have. */
  private void giveUp(long now, ReplyFailure failure, String why) {
    handedOver.failOverdue(now, () -> new ReplyException(failure, why));
  }

  /** A request handed over on this node: answered on the caller's promise, once. */
  private final class HandedOverRequest implements ShardRequest {
    private final JsonObject body;
    private final Promise<JsonObject> answer;

    HandedOverRequest(JsonObject body, Promise<JsonObject> answer) {
      this.body = body;
      this.answer = answer;
    }

    @Override
    public JsonObject body() {
      return body;
    }

    @Override
    public void reply(JsonObject reply) {
      // as the bus's default codec would: the caller gets its own copy
      replyByReference(JsonFields.copy(reply));
    }

    @Override
    public void replyByReference(JsonObject reply) {
      if (handedOver.remove(answer)) {
        answer.tryComplete(reply);
      }
    }

    @Override
    public void fail(int code, String message) {
      if (handedOver.remove(answer)) {
        answer.tryFail(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, code, message));
      }
    }
  }

  private void handle(ShardRequest msg) {
    JsonObject req = msg.body();
    Session bound = req.getString("sessionId") == null ? null : sessions.get(req.getString("sessionId"));
    if (bound != null && !"detach".equals(req.getString("op")) && req.containsKey("principal")
        && !java.util.Objects.equals(bound.principal, req.getString("principal"))) {
      // a session belongs to the principal that initialized it; another token cannot take it over
      msg.reply(new JsonObject().put("status", 403)
          .put("error", "Forbidden: this session belongs to another principal; initialize your own session"));
      return;
    }
    switch (req.getString("op", "")) {
      case "post":
        post(msg, req);
        break;
      case "get":
        get(msg, req);
        break;
      case "delete":
        Session s = sessions.get(req.getString("sessionId"));
        if (s == null) {
          msg.reply(notFound());
        } else {
          close(s, SessionLog.Reason.CLIENT);
          msg.reply(new JsonObject().put("status", 200));
        }
        break;
      case "detach":
        Session owner = sessions.get(req.getString("sessionId"));
        EventStream stream = owner == null ? null : owner.streamByTarget(req.getString("streamId"));
        if (stream != null) {
          stream.detach();
          owner.lastSeen = System.currentTimeMillis();
        }
        break;
      default:
        msg.fail(400, "unknown op");
    }
  }

  private void post(ShardRequest msg, JsonObject req) {
    JsonArray messages = req.getJsonArray("messages");
    String sid = req.getString("sessionId");
    if (sid == null) {
      initialize(msg, messages, req.getBoolean("batch", false), req.getString("principal"));
      return;
    }
    Session session = sessions.get(sid);
    if (session == null) {
      msg.reply(notFound());
      return;
    }
    session.lastSeen = System.currentTimeMillis();
    if (req.getBoolean("batch", false) && !ProtocolRevision.batchesAllowed(session.protocolVersion)) {
      msg.reply(badRequest(JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "JSON-RPC batches are not allowed in protocol revision " + session.protocolVersion)));
      return;
    }
    List<JsonObject> requests = new ArrayList<>();
    for (Object o : messages) {
      JsonObject m = (JsonObject) o;
      switch (JsonRpc.kind(m)) {
        case REQUEST -> requests.add(m);
        case NOTIFICATION -> dispatcher.notification(session, m);
        case RESPONSE -> session.answer(m);
        default -> { }
      }
    }
    if (requests.isEmpty()) {
      msg.reply(new JsonObject().put("status", 202));
      return;
    }
    StreamNeed need = req.getBoolean("sse", false) ? streamNeed(session, requests) : StreamNeed.NONE;
    if (need == StreamNeed.NOW) {
      EventStream stream = session.newPostStream();
      stream.attach(req.getString("target"), req.getString("streamId"));
      msg.replyByReference(JsonFields.object(2).put("status", 200).put("sse", true));
      if (ProtocolRevision.ssePriming(session.protocolVersion)) {
        stream.prime(vertx, SSE_RETRY_MS);
      }
      List<Future<JsonObject>> all = new ArrayList<>();
      for (JsonObject r : requests) {
        all.add(dispatcher.request(session, r, stream).onSuccess(resp -> {
          if (resp != null) {
            stream.emit(vertx, resp);
          }
        }));
      }
      Future.join(all).onComplete(ar -> stream.end(vertx));
      return;
    }
    if (need == StreamNeed.LATER) {
      streamIfStillRunning(msg, req, session, requests);
      return;
    }
    List<Future<JsonObject>> all = new ArrayList<>();
    for (JsonObject r : requests) {
      all.add(dispatcher.request(session, r, null));
    }
    Future.join(all).onComplete(ar -> answerJson(msg, req, all));
  }

  /**
   * A POST whose calls may send notifications (progress, log messages) but need no answer from the
   * client: its stream opens only if a call still runs {@link #STREAM_AFTER_MS} after it arrived,
   * with what the calls said until then, and carries the rest as it comes. A POST answered sooner
   * is answered as one JSON body: its notifications could only have arrived with the answer, in
   * the same write, and cost a call four events' trips, encodings and parses on both sides
   * (docs/performance.md).
   */
  private void streamIfStillRunning(ShardRequest msg, JsonObject req, Session session, List<JsonObject> requests) {
    // not attached: it records what the calls emit and delivers nothing until it is opened
    EventStream stream = session.heldPostStream();
    List<Future<JsonObject>> all = new ArrayList<>();
    long timer = vertx.setTimer(STREAM_AFTER_MS, t -> {
      if (stream.held() && !allComplete(all)) {
        session.keep(stream);
        stream.openLate(vertx, req.getString("target"), req.getString("streamId"),
            ProtocolRevision.ssePriming(session.protocolVersion) ? SSE_RETRY_MS : -1);
        msg.replyByReference(JsonFields.object(3).put("status", 200).put("sse", true).put("late", true));
        // the calls that ended meanwhile answered into the held stream: opening replayed them
      }
    });
    for (JsonObject r : requests) {
      all.add(dispatcher.request(session, r, stream).onSuccess(resp -> {
        if (resp != null) {
          stream.emit(vertx, resp);
        }
      }));
    }
    Future.join(all).onComplete(ar -> {
      if (stream.held()) {
        vertx.cancelTimer(timer);
        stream.drop();
        answerJson(msg, req, all);
      } else {
        stream.end(vertx);
      }
    });
  }

  private static boolean allComplete(List<Future<JsonObject>> all) {
    for (Future<JsonObject> f : all) {
      if (!f.isComplete()) {
        return false;
      }
    }
    return true;
  }

  /** The POST's responses as one JSON body (an array for a batch), or 202 / an empty stream. */
  private static void answerJson(ShardRequest msg, JsonObject req, List<Future<JsonObject>> all) {
    JsonArray out = new JsonArray();
    all.forEach(f -> {
      if (f.succeeded() && f.result() != null) {
        out.add(f.result());
      }
    });
    if (out.isEmpty() && req.getBoolean("sse", false)) {
      // every call was cancelled, and a cancelled request gets no response: the POST ends as an
      // empty event stream, as a call answered over SSE would
      msg.replyByReference(new JsonObject().put("status", 200).put("sse", true).put("empty", true));
    } else if (out.isEmpty()) {
      msg.reply(new JsonObject().put("status", 202));
    } else {
      Object body = req.getBoolean("batch", false) ? out : out.getJsonObject(0);
      msg.replyByReference(JsonFields.object(2).put("status", 200).put("body", body));
    }
  }

  /** What a POST's answer needs of an SSE stream. */
  private enum StreamNeed {
    /** Nothing but the responses can travel: they go back as one JSON body. */
    NONE,
    /** Notifications may: a stream if the calls outlast {@link #STREAM_AFTER_MS}. */
    LATER,
    /** A tool talks to the client, which must be able to answer at once: a stream from the start. */
    NOW
  }

  /**
   * Whether a POST's answer needs an SSE stream: when something besides the responses may travel on
   * it (a call asked for progress, the session for log messages, or a tool talks to the client).
   * Otherwise the responses go back as one JSON body, which the transport allows for any request,
   * and the call is spared the stream's events and their trips across the bus.
   */
  private StreamNeed streamNeed(Session session, List<JsonObject> requests) {
    StreamNeed need = session.logLevelChosen ? StreamNeed.LATER : StreamNeed.NONE;
    for (JsonObject r : requests) {
      JsonObject params = r.getValue("params") instanceof JsonObject p ? p : null;
      if (params == null || !"tools/call".equals(r.getString("method"))) {
        continue;
      }
      Tool tool = params.getValue("name") instanceof String name ? features.tools().get(name) : null;
      if (tool != null && tool.talksToClient()) {
        return StreamNeed.NOW;
      }
      if (params.getValue("_meta") instanceof JsonObject meta && meta.getValue("progressToken") != null) {
        need = StreamNeed.LATER;
      }
    }
    return need;
  }

  private void initialize(ShardRequest msg, JsonArray messages, boolean batch, String principal) {
    JsonObject m = messages.size() == 1 ? messages.getJsonObject(0) : null;
    if (batch || m == null || JsonRpc.kind(m) != JsonRpc.Kind.REQUEST
        || !"initialize".equals(m.getString("method"))) {
      Object id = m == null ? null : JsonRpc.idOf(m);
      msg.reply(badRequest(JsonRpc.error(id, JsonRpc.INVALID_REQUEST,
          "Bad Request: Mcp-Session-Id header is required (only a single initialize request may come without one)")));
      return;
    }
    Object id = m.getValue("id");
    JsonObject params = m.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    Object requested = params.getValue("protocolVersion");
    if (!(requested instanceof String)) {
      msg.reply(new JsonObject().put("status", 200).put("body",
          JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "initialize: protocolVersion (string) is required")));
      return;
    }
    if (sessions.size() >= settings.maxSessions()) {
      msg.reply(new JsonObject().put("status", 503)
          .put("error", "this node holds its maximum of sessions; retry later or on another node"));
      return;
    }
    String version = ProtocolRevision.negotiate((String) requested);
    String sid = nodeId + "." + shard + "." + randomToken();
    Session session = new Session(sid, version, params.getJsonObject("clientInfo"),
        params.getJsonObject("capabilities"), settings.replayEvents());
    session.principal = principal == null ? dev.sluice.config.PrincipalConfig.DEFAULT : principal;
    sessions.put(sid, session);
    metrics.sessionOpened();
    console.changed();
    SessionLog.open(sid, session.principal, version, session.clientInfo);
    JsonObject result = new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", features.capabilities(features.apps(session.clientCapabilities)))
        .put("serverInfo", features.serverInfo());
    if (features.instructions() != null) {
      result.put("instructions", features.instructions());
    }
    msg.reply(new JsonObject().put("status", 200).put("sessionId", sid)
        .put("protocolVersion", version).put("body", JsonRpc.result(id, result)));
  }

  private void get(ShardRequest msg, JsonObject req) {
    Session session = sessions.get(req.getString("sessionId"));
    if (session == null) {
      msg.reply(notFound());
      return;
    }
    session.lastSeen = System.currentTimeMillis();
    String target = req.getString("target");
    String streamId = req.getString("streamId");
    Object[] resume = EventStream.parseEventId(req.getString("lastEventId"));
    EventStream stream = resume == null ? null : session.stream((String) resume[0]);
    if (stream == null) {
      stream = session.getStream();
      if (stream.attached()) {
        msg.reply(new JsonObject().put("status", 409)
            .put("error", "Conflict: this session already has an open GET stream"));
        return;
      }
      resume = null;
    } else if (stream.attached()) {
      // a resume replaces a connection the server has not yet noticed is gone
      stream.end(vertx);
    }
    stream.attach(target, streamId);
    msg.reply(new JsonObject().put("status", 200));
    if (resume != null) {
      stream.replay(vertx, (Long) resume[1]);
    }
  }

  private void broadcastListChanged() {
    JsonObject n = JsonRpc.notification("notifications/tools/list_changed", null);
    for (Session s : sessions.values()) {
      s.getStream().emit(vertx, n);
    }
  }

  /** Server-initiated message to a session's GET stream (buffered if none is open). */
  void notifySession(String sessionId, JsonObject notification) {
    Session s = sessions.get(sessionId);
    if (s != null) {
      s.getStream().emit(vertx, notification);
    }
  }

  private void expireIdle() {
    long now = System.currentTimeMillis();
    List<Session> idle = new ArrayList<>();
    for (Session s : sessions.values()) {
      if (now - s.lastSeen > settings.idleTimeoutMs() && s.inFlight.isEmpty()
          && !s.getStream().attached()) {
        idle.add(s);
      }
    }
    idle.forEach(s -> close(s, SessionLog.Reason.IDLE));
  }

  private void close(Session s, SessionLog.Reason reason) {
    if (sessions.remove(s.id) == null) {
      return;
    }
    metrics.sessionClosed();
    console.changed();
    SessionLog.close(s.id, reason, System.currentTimeMillis() - s.openedAt, s.inFlight.size());
    new ArrayList<>(s.inFlight.values()).forEach(ToolCall::cancel);
    for (EventStream stream : s.allStreams()) {
      if (stream.attached()) {
        stream.end(vertx);
      }
    }
  }

  private static JsonObject notFound() {
    return new JsonObject().put("status", 404)
        .put("body", JsonRpc.error(null, -32001, "Session not found; initialize a new session"));
  }

  private static JsonObject badRequest(JsonObject body) {
    return new JsonObject().put("status", 400).put("body", body);
  }

  private static String randomToken() {
    byte[] b = new byte[18];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  public int sessionCount() {
    return sessions.size();
  }
}
