package dev.sluice.mcp;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * One in-flight tools/call of a session (2025-era revisions): its notifications go to the call's
 * SSE stream (or are dropped for a JSON-mode call), its client is the session's. Lives on its
 * shard's loop.
 */
final class ToolCall extends RunningCall {

  private final Session session;
  private final EventStream stream;

  ToolCall(Vertx vertx, Session session, String callId, Object progressToken, EventStream stream,
      String progressAddress, Map<String, RunningCall> shardQueries) {
    super(vertx, callId, progressToken, progressAddress, shardQueries);
    this.session = session;
    this.stream = stream;
  }

  @Override
  public String sessionId() {
    return session.id;
  }

  @Override
  public String principal() {
    return session.principal;
  }

  @Override
  public JsonObject clientInfo() {
    return session.clientSummary();
  }

  @Override
  public JsonObject clientCapabilities() {
    return session.clientCapabilities == null ? new JsonObject() : session.clientCapabilities;
  }

  @Override
  protected boolean logs(String level) {
    return session.logs(level);
  }

  @Override
  protected void notifyClient(JsonObject notification) {
    // JSON-mode calls have no stream of their own: such notifications are dropped, as the
    // transport spec ties request-related messages to the request's SSE stream
    if (stream != null && !stream.ended()) {
      stream.emit(vertx, notification);
    }
  }

  @Override
  protected void queryStarted(String queryId) {
    session.queries.put(queryId, this);
  }

  @Override
  protected void queryEnded(String queryId) {
    session.queries.remove(queryId);
  }

  @Override
  public boolean cancelSessionQuery(String queryId) {
    RunningCall owner = session.queries.get(queryId);
    return owner != null && owner.cancelQuery(queryId);
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
    target.emit(vertx, request);
    return p.future().onComplete(ar -> vertx.cancelTimer(timer));
  }

  @Override
  public void disconnectStream() {
    if (stream != null) {
      stream.disconnect(vertx);
    }
  }

  EventStream stream() {
    return stream;
  }

}
