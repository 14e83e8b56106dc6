package dev.sluice.http;

import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.mcp.stateless.Envelope;
import dev.sluice.mcp.stateless.StatelessHandler;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.observability.TransportLog;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One POST of revision 2026-07-28 (streamable-http): its headers must mirror its body, it is
 * answered on this event loop by the {@link StatelessHandler} without a session or an event-bus hop,
 * as JSON or, for tools/call and subscriptions/listen when the client accepts it, as an SSE stream
 * scoped to the request (progress and log messages, then the response). The stream is not resumable
 * (no event ids), and the client closing it cancels the request.
 */
final class StatelessPost {

  private final StatelessHandler handler;
  private final TransportRules rules;
  private final GatewayMetrics metrics;
  private final SseFlushTick sse;
  /** The HTTP verticle's open SSE streams (keepalive comments reach these too). */
  private final Map<String, SseSink> streams;
  private final BooleanSupplier draining;
  private final String streamPrefix;
  private long seq;

  StatelessPost(StatelessHandler handler, TransportRules rules, GatewayMetrics metrics, SseFlushTick sse,
      Map<String, SseSink> streams, BooleanSupplier draining, String streamPrefix) {
    this.handler = handler;
    this.rules = rules;
    this.metrics = metrics;
    this.sse = sse;
    this.streams = streams;
    this.draining = draining;
    this.streamPrefix = streamPrefix;
  }

  /**
   * True when a POST is served statelessly: its body carries the per-request envelope, or it comes
   * without a session naming a 2026 revision in its header (and then lacks the envelope: -32602).
   */
  static boolean applies(HttpServerRequest req, Object body) {
    if (Envelope.claimed(body)) {
      return true;
    }
    return body instanceof JsonObject m && req.getHeader("Mcp-Session-Id") == null
        && ProtocolRevision.modern(req.getHeader("MCP-Protocol-Version")) && !"initialize".equals(m.getString("method"));
  }

  void post(HttpServerRequest req, JsonObject msg) {
    Object id = JsonRpc.idOf(msg);
    switch (JsonRpc.kind(msg)) {
      case NOTIFICATION -> {
        // the revision defines no client notification over HTTP (closing a stream cancels): accepted, ignored
        metrics.httpRequest("POST", 202);
        req.response().setStatusCode(202).end();
        return;
      }
      case RESPONSE -> {
        json(req, 400, JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "Invalid Request: revision "
            + ProtocolRevision.V2026_07_28 + " has no server-to-client requests to answer"));
        return;
      }
      default -> { }
    }
    String method = msg.getString("method");
    JsonObject params = msg.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    // the order the SDKs use: an unserved revision first (its answer lists ours), then the headers
    Envelope.Parsed parsed = Envelope.parse(msg);
    if (!parsed.ok() && parsed.error().getJsonObject("error").getInteger("code") == JsonRpc.UNSUPPORTED_PROTOCOL_VERSION) {
      refuse(req, parsed.httpStatus(), parsed.error(), "unsupported_version");
      return;
    }
    String bodyVersion = Envelope.claimedVersion(msg);
    // a body without its revision is refused for that below (-32602), not for the header
    JsonObject headerProblem = first(
        bodyVersion == null ? null : TransportRules.protocolVersionMatches(req, id, bodyVersion),
        TransportRules.methodMatches(req, id, method),
        TransportRules.nameMatches(req, id, method, params));
    if (headerProblem != null) {
      refuse(req, 400, headerProblem, "header_mismatch");
      return;
    }
    if (!parsed.ok()) {
      refuse(req, parsed.httpStatus(), parsed.error(), "invalid_envelope");
      return;
    }
    boolean streaming = "tools/call".equals(method) || "subscriptions/listen".equals(method);
    if (streaming && draining.getAsBoolean()) {
      // new work belongs on another node; what runs here is served to the end
      req.response().putHeader("Retry-After", "1");
      json(req, 503, JsonRpc.error(id, -32000, "This node is draining (shutting down) and starts no new work; retry, "
          + "and the load balancer sends you to another node"));
      return;
    }
    boolean sse = streaming && TransportRules.acceptsSse(req);
    if ("subscriptions/listen".equals(method) && !sse) {
      json(req, 406, JsonRpc.error(id, JsonRpc.INVALID_REQUEST,
          "Not Acceptable: subscriptions/listen is answered as text/event-stream"));
      return;
    }
    String principal = rules.principal(req);
    if (!sse) {
      StatelessHandler.Pending pending = handler.request(msg, parsed.envelope(), principal, n -> { });
      HttpServerResponse res = req.response();
      res.closeHandler(v -> {
        if (!pending.response().isComplete()) {
          // the client gave up on the request: that cancels it
          pending.cancel().run();
        }
      });
      pending.response().onComplete(ar -> {
        JsonObject response = ar.succeeded() ? ar.result()
            : JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "Internal error");
        if (response != null) {
          json(req, StatelessHandler.httpStatus(response), response);
        }
      });
      return;
    }
    stream(req, msg, parsed.envelope(), principal);
  }

  /**
   * The request's own SSE stream: its notifications as they come, then its response, then the end.
   * A tools/call opens it only if it still runs {@link SseFlushTick#DELAY_MS} after it arrived,
   * with what it said until then: a call answered sooner is answered as JSON, as its notifications
   * could only have arrived with the answer, in the same write.
   */
  private void stream(HttpServerRequest req, JsonObject msg, Envelope envelope, String principal) {
    HttpServerResponse res = req.response();
    String streamId = streamPrefix + "s" + (++seq);
    LateStream late = new LateStream(sse.open(res));
    StatelessHandler.Pending pending = handler.request(msg, envelope, principal, late::notification);
    if (pending.response().isComplete()) {
      // answered at once (an unknown tool, a bad argument): plain JSON, no stream needed
      JsonObject response = pending.response().result();
      if (response != null) {
        json(req, StatelessHandler.httpStatus(response), response);
      }
      return;
    }
    res.closeHandler(v -> {
      if (streams.remove(streamId) != null) {
        metrics.sseClosed();
        late.sink.markClosed();
      }
      if (!pending.response().isComplete()) {
        // streamable-http 2026-07-28: the client closing the response stream cancels the request
        pending.cancel().run();
      }
    });
    if ("tools/call".equals(msg.getString("method"))) {
      late.timer = sse.vertx().setTimer(SseFlushTick.DELAY_MS, t -> {
        late.timer = -1;
        if (!pending.response().isComplete() && !res.closed()) {
          open(late, streamId, true);
        }
      });
    } else {
      open(late, streamId, false);
    }
    pending.response().onComplete(ar -> {
      JsonObject response = ar.succeeded() ? ar.result()
          : JsonRpc.error(JsonRpc.idOf(msg), JsonRpc.INTERNAL_ERROR, "Internal error");
      if (!late.open) {
        if (late.timer >= 0) {
          sse.vertx().cancelTimer(late.timer);
        }
        if (response != null && !res.closed()) {
          json(req, StatelessHandler.httpStatus(response), response);
        }
        return;
      }
      if (streams.remove(streamId) == null) {
        return;
      }
      metrics.sseClosed();
      if (response != null) {
        late.sink.event(null, response);
      }
      late.sink.end();
    });
  }

  private void open(LateStream late, String streamId, boolean afterDelay) {
    streams.put(streamId, late.sink);
    metrics.sseOpened();
    late.sink.start();
    metrics.httpRequest("POST", 200);
    if (afterDelay) {
      late.sink.prompt();
    }
    late.open();
  }

  /**
   * A request's stream that may never open: notifications wait here until it does, the oldest
   * dropped beyond {@link #MAX_HELD} (progress superseded by later progress, within one delay).
   */
  private static final class LateStream {
    static final int MAX_HELD = 256;
    final SseSink sink;
    final java.util.ArrayDeque<JsonObject> held = new java.util.ArrayDeque<>(4);
    boolean open;
    long timer = -1;

    LateStream(SseSink sink) {
      this.sink = sink;
    }

    void notification(JsonObject n) {
      if (open) {
        sink.event(null, n);
      } else {
        if (held.size() == MAX_HELD) {
          held.removeFirst();
        }
        held.addLast(n);
      }
    }

    void open() {
      open = true;
      while (!held.isEmpty()) {
        sink.event(null, held.removeFirst());
      }
    }
  }

  private void refuse(HttpServerRequest req, int status, JsonObject error, String kind) {
    TransportLog.error("http", null, kind, error.getJsonObject("error").getString("message"));
    json(req, status, error);
  }

  private void json(HttpServerRequest req, int status, JsonObject body) {
    JsonAnswer.answer(req, metrics, status, body);
  }

  private static JsonObject first(JsonObject... problems) {
    for (JsonObject p : problems) {
      if (p != null) {
        return p;
      }
    }
    return null;
  }
}
