package dev.sluice.mcp.tool;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;

/**
 * What a running tool call may use: the Vert.x instance, progress and log notifications to the
 * calling client, and a cancellation hook.
 */
public interface ToolContext {

  Vertx vertx();

  String sessionId();

  /** The principal the session belongs to ({@code default} without configured principals). */
  String principal();

  /** The JSON-RPC id of this call, as a string. */
  String callId();

  /** Client name/version from initialize, for logs. */
  JsonObject clientInfo();

  /**
   * Sends notifications/progress when the caller supplied a progressToken; otherwise a no-op.
   * Progress values must increase; {@code total} may be null when unknown.
   */
  void progress(double progress, Double total, String message);

  /** Sends notifications/message at {@code level} if the session's log level lets it through. */
  void log(String level, String logger, Object data);

  /**
   * Registers what to do when the client cancels this call (notifications/cancelled or
   * query_cancel). The hook runs on the session's event loop; the call's result is then dropped.
   */
  void onCancel(Runnable hook);

  boolean cancelled();

  /** An address on which executors can send progress for {@code queryId} of this call. */
  String progressAddress();

  /**
   * Ties an executor queryId to this call so query_cancel and notifications/cancelled reach it, and
   * executor progress on {@link #progressAddress()} is routed here.
   */
  void trackQuery(String queryId, java.util.function.Consumer<JsonObject> onProgress, Supplier<Future<?>> cancel);

  /** Cancels a query started by another call of the same session; false if none is running. */
  boolean cancelSessionQuery(String queryId);

  /** The capabilities the client declared at initialize (sampling, elicitation, roots...). */
  JsonObject clientCapabilities();

  /**
   * Sends a request to the client (e.g. {@code sampling/createMessage}, {@code elicitation/create})
   * on this call's stream and completes with the client's result; fails with the client's error,
   * or after {@code timeoutMs}.
   */
  Future<JsonObject> requestClient(String method, JsonObject params, long timeoutMs);

  /** Records the fingerprint of the statement this call runs, for its audit record. */
  default void statementFingerprint(String fingerprint) {
  }

  /**
   * Closes this call's SSE response while the call keeps running (SEP-1699 polling): later events
   * are kept and delivered when the client resumes with Last-Event-ID.
   */
  void disconnectStream();

  /** This call's trace span, for the executor's child spans; a no-op while tracing is off. */
  default dev.sluice.tracing.CallSpan span() {
    return dev.sluice.tracing.CallSpan.NONE;
  }
}
