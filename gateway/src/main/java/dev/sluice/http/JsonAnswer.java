package dev.sluice.http;

import dev.sluice.bus.JsonBytes;
import dev.sluice.observability.GatewayMetrics;
import io.netty.buffer.ByteBuf;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * Ends a response with a JSON body encoded into a pooled direct buffer ({@link JsonBytes#pooled}),
 * released once the write completes: an answer leaves no byte array behind, and Netty writes it
 * without first copying it to a direct buffer.
 */
final class JsonAnswer {

  private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");

  private JsonAnswer() {}

  /**
   * Answers {@code req} with {@code status} and {@code body}, counted by status, unless its
   * response already ended or its connection closed (a client gone, a call answered another way):
   * then nothing is written.
   */
  static void answer(HttpServerRequest req, GatewayMetrics metrics, int status, Object body) {
    answer(req, metrics, status, body, false);
  }

  /**
   * The same; {@code closing} adds {@code Connection: close} for an answer after which the caller
   * closes the connection. The future completes when the answer was written; null when nothing
   * was.
   */
  static Future<Void> answer(HttpServerRequest req, GatewayMetrics metrics, int status, Object body,
      boolean closing) {
    HttpServerResponse res = req.response();
    if (res.ended() || res.closed()) {
      return null;
    }
    metrics.httpRequest(req.method().name(), status);
    return end(closing ? res.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE) : res, status, body);
  }

  /** Sets {@code status}, writes {@code body} and ends; the future completes when it was written. */
  static Future<Void> end(HttpServerResponse res, int status, Object body) {
    ByteBuf bytes = JsonBytes.pooled(body);
    try {
      return res.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON)
          .end(BufferInternal.buffer(bytes))
          // Vert.x hands Netty an unreleasable view: the pooled buffer is ours to give back
          .andThen(ar -> bytes.release());
    } catch (RuntimeException e) {
      bytes.release();
      throw e;
    }
  }
}
