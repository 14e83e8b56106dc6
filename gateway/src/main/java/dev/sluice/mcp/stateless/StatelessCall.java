package dev.sluice.mcp.stateless;

import dev.sluice.mcp.RunningCall;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One tools/call of revision 2026-07-28: everything it knows of its client is in the request's
 * {@link Envelope}; its notifications go to the request's own response stream (SSE, or stdout on
 * stdio) until it ends or turns into a task; a request to the client cannot be sent and becomes an
 * {@code input_required} result instead (multi round-trip requests): the tool runs again on the
 * client's retry, which carries the answers.
 */
final class StatelessCall extends RunningCall {

  private final String principal;
  private final Envelope envelope;
  private final NodeQueries nodeQueries;
  private final JsonObject inputResponses;
  private Consumer<JsonObject> notifications;
  /** Requests the tool wanted answered by the client, by key: the input_required result's inputRequests. */
  private final JsonObject inputRequests = new JsonObject();
  private JsonObject missingCapabilities;
  private int inputSeq;

  StatelessCall(Vertx vertx, String callId, Envelope envelope, String principal, String progressAddress,
      Map<String, RunningCall> loopQueries, NodeQueries nodeQueries, JsonObject inputResponses,
      Consumer<JsonObject> notifications) {
    super(vertx, callId, envelope.progressToken(), progressAddress, loopQueries);
    this.principal = principal;
    this.envelope = envelope;
    this.nodeQueries = nodeQueries;
    this.inputResponses = inputResponses == null ? new JsonObject() : inputResponses;
    this.notifications = notifications;
  }

  /** The call became a task: the request's stream is answered, so nothing more goes to it. */
  void detachFromStream() {
    notifications = null;
  }

  /** What the client must answer before the call can finish; empty when nothing is asked. */
  JsonObject inputRequests() {
    return inputRequests;
  }

  /** The capabilities the tool needed and the request did not declare, or null. */
  JsonObject missingCapabilities() {
    return missingCapabilities;
  }

  @Override
  public boolean awaitingClient() {
    return !inputRequests.isEmpty() || missingCapabilities != null;
  }

  @Override
  public String sessionId() {
    return null;
  }

  @Override
  public String principal() {
    return principal;
  }

  @Override
  public JsonObject clientInfo() {
    return envelope.clientInfo() == null ? new JsonObject() : envelope.clientInfo();
  }

  @Override
  public JsonObject clientCapabilities() {
    return envelope.clientCapabilities();
  }

  @Override
  protected boolean logs(String level) {
    return envelope.logs(level);
  }

  @Override
  protected void notifyClient(JsonObject notification) {
    Consumer<JsonObject> n = notifications;
    if (n != null) {
      n.accept(notification);
    }
  }

  @Override
  protected void queryStarted(String queryId) {
    nodeQueries.started(queryId, principal, this);
  }

  @Override
  protected void queryEnded(String queryId) {
    nodeQueries.ended(queryId);
  }

  /** query_cancel: any query of the same principal running on this node (there is no session). */
  @Override
  public boolean cancelSessionQuery(String queryId) {
    return nodeQueries.cancel(queryId, principal);
  }

  /**
   * A request to the client (elicitation/create, sampling/createMessage, roots/list): answered from
   * the retry's inputResponses when it carries one for this request's key; otherwise asked for in
   * the input_required result, and the call stops here. Keys follow the order of the requests, so
   * the retry's run asks them in the same order and finds its answers.
   */
  @Override
  public Future<JsonObject> requestClient(String method, JsonObject params, long timeoutMs) {
    String key = "input-" + (++inputSeq);
    String capability = switch (method) {
      case "elicitation/create" -> "elicitation";
      case "sampling/createMessage" -> "sampling";
      case "roots/list" -> "roots";
      default -> null;
    };
    if (capability == null) {
      return Future.failedFuture(new SqlError(ErrorType.INTERNAL_ERROR, "no client request " + method
          + " exists in revision 2026-07-28"));
    }
    if (!envelope.has(capability)) {
      // MRTR: never ask for what the client did not declare; the request fails with -32021
      missingCapabilities = (missingCapabilities == null ? new JsonObject() : missingCapabilities)
          .put(capability, new JsonObject());
      return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "the client did not declare "
          + capability));
    }
    if (inputResponses.getValue(key) instanceof JsonObject answer) {
      return Future.succeededFuture(answer);
    }
    inputRequests.put(key, new JsonObject().put("method", method).put("params", params));
    return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "waiting for the client's answer to "
        + method));
  }

  /** Nothing to disconnect: 2026-07-28 streams are not resumable; a closed stream cancels the call. */
  @Override
  public void disconnectStream() {
  }
}
