package dev.sluice.mcp;

import dev.sluice.mcp.tool.ToolContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** One in-flight tools/call: the {@link ToolContext} a tool sees. Lives on its shard's loop. */
final class ToolCall implements ToolContext {

  private final Vertx vertx;
  private final Session session;
  private final String callId;
  private final Object progressToken;
  private final EventStream stream;
  private final String progressAddress;
  private final Map<String, ToolCall> shardQueries;
  private final List<Runnable> cancelHooks = new ArrayList<>();
  private final Map<String, Supplier<Future<?>>> queryCancels = new HashMap<>();
  final Map<String, Consumer<JsonObject>> queryProgress = new HashMap<>();
  private boolean cancelled;
  /** The analysed statement's fingerprint, for the audit record; null when the call ran none. */
  String fingerprint;
  /** The query this call started last: progress names it, so query_cancel can be given it. */
  private String lastQueryId;
  /** Set by the dispatcher when the call starts. */
  dev.sluice.tracing.CallSpan span = dev.sluice.tracing.CallSpan.NONE;
  private double lastProgress = Double.NEGATIVE_INFINITY;

  ToolCall(Vertx vertx, Session session, String callId, Object progressToken, EventStream stream,
      String progressAddress, Map<String, ToolCall> shardQueries) {
    this.vertx = vertx;
    this.shardQueries = shardQueries;
    this.session = session;
    this.callId = callId;
    this.progressToken = progressToken;
    this.stream = stream;
    this.progressAddress = progressAddress;
  }

  @Override
  public void statementFingerprint(String fingerprint) {
    this.fingerprint = fingerprint;
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public String sessionId() {
    return session.id;
  }

  @Override
  public String callId() {
    return callId;
  }

  @Override
  public JsonObject clientInfo() {
    return session.clientSummary();
  }

  @Override
  public void progress(double progress, Double total, String message) {
    if (progressToken == null || cancelled) {
      return;
    }
    // the spec requires strictly increasing progress values within one request
    double p = progress > lastProgress ? progress : lastProgress + 1;
    lastProgress = p;
    JsonObject params = new JsonObject().put("progressToken", progressToken).put("progress", p);
    if (total != null) {
      params.put("total", Math.max(total, p));
    }
    if (message != null) {
      params.put("message", lastQueryId == null ? message : message + " (queryId " + lastQueryId + ")");
    }
    notifyClient(JsonRpc.notification("notifications/progress", params));
  }

  @Override
  public void log(String level, String logger, Object data) {
    if (cancelled || !session.logs(level)) {
      return;
    }
    JsonObject params = new JsonObject().put("level", level).put("data", data);
    if (logger != null) {
      params.put("logger", logger);
    }
    notifyClient(JsonRpc.notification("notifications/message", params));
  }

  private void notifyClient(JsonObject notification) {
    // JSON-mode calls have no stream of their own: such notifications are dropped, as the
    // transport spec ties request-related messages to the request's SSE stream
    if (stream != null && !stream.ended()) {
      stream.emit(vertx.eventBus(), notification);
    }
  }

  @Override
  public void onCancel(Runnable hook) {
    if (cancelled) {
      hook.run();
    } else {
      cancelHooks.add(hook);
    }
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }

  void cancel() {
    if (cancelled) {
      return;
    }
    cancelled = true;
    queryCancels.values().forEach(Supplier::get);
    cancelHooks.forEach(Runnable::run);
  }

  @Override
  public String principal() {
    return session.principal;
  }

  @Override
  public String progressAddress() {
    return progressAddress;
  }

  @Override
  public void trackQuery(String queryId, Consumer<JsonObject> onProgress, Supplier<Future<?>> cancel) {
    session.queries.put(queryId, this);
    shardQueries.put(queryId, this);
    queryProgress.put(queryId, onProgress);
    queryCancels.put(queryId, cancel);
    lastQueryId = queryId;
  }

  void untrackQueries() {
    for (String q : queryCancels.keySet()) {
      session.queries.remove(q);
      shardQueries.remove(q);
    }
  }

  /** Cancels one query of this call (query_cancel from another call). */
  boolean cancelQuery(String queryId) {
    Supplier<Future<?>> c = queryCancels.get(queryId);
    if (c == null) {
      return false;
    }
    c.get();
    return true;
  }

  @Override
  public boolean cancelSessionQuery(String queryId) {
    ToolCall owner = session.queries.get(queryId);
    return owner != null && owner.cancelQuery(queryId);
  }

  /** Routes one executor progress message to the tool that started the query. */
  void executorProgress(JsonObject msg) {
    Consumer<JsonObject> c = queryProgress.get(msg.getString("queryId"));
    if (c != null && !cancelled) {
      c.accept(msg);
    }
  }

  @Override
  public JsonObject clientCapabilities() {
    return session.clientCapabilities == null ? new JsonObject() : session.clientCapabilities;
  }

  @Override
  public Future<JsonObject> requestClient(String method, JsonObject params, long timeoutMs) {
    String id = "sluice-" + (++session.clientRequestSeq);
    io.vertx.core.Promise<JsonObject> p = io.vertx.core.Promise.promise();
    session.pendingClientRequests.put(id, p);
    long timer = vertx.setTimer(timeoutMs, t -> {
      session.pendingClientRequests.remove(id);
      p.tryFail(new dev.sluice.sql.SqlError(dev.sluice.sql.ErrorType.TIMEOUT,
          "the client did not answer " + method + " within " + timeoutMs + " ms"));
    });
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method)
        .put("params", params);
    // a request of this call travels on the call's stream; without one, on the GET stream
    EventStream target = stream != null && !stream.ended() ? stream : session.getStream();
    target.emit(vertx.eventBus(), request);
    return p.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  @Override
  public void disconnectStream() {
    if (stream != null) {
      stream.disconnect(vertx.eventBus());
    }
  }

  EventStream stream() {
    return stream;
  }

  @Override
  public dev.sluice.tracing.CallSpan span() {
    return span;
  }
}
