package dev.sluice.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;

/**
 * Writes SSE events to one HTTP response with backpressure. Events that arrive before the
 * response is started are held; while the socket's write queue is full, events wait for drain; a
 * client that falls too far behind is disconnected (it can resume with Last-Event-ID, since the
 * session keeps a replay buffer) rather than growing memory without bound.
 */
final class SseSink {

  /** Pending events allowed before a slow client is cut off. */
  static final int MAX_PENDING = 1_024;

  private final HttpServerResponse response;
  private final ArrayDeque<Buffer> pending = new ArrayDeque<>();
  private boolean started;
  private boolean endRequested;
  private boolean closed;

  SseSink(HttpServerResponse response) {
    this.response = response;
  }

  HttpServerResponse response() {
    return response;
  }

  void start() {
    if (started || closed) {
      return;
    }
    started = true;
    response.setStatusCode(200)
        .putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-cache, no-transform")
        .putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
    // send the headers now: clients wait for them before reading a stream that may stay quiet
    response.writeHead();
    response.drainHandler(v -> flush());
    flush();
  }

  boolean started() {
    return started;
  }

  void event(String eventId, JsonObject message) {
    StringBuilder sb = new StringBuilder(256);
    if (eventId != null) {
      sb.append("id: ").append(eventId).append('\n');
    }
    sb.append("event: message\ndata: ").append(message.encode()).append("\n\n");
    enqueue(Buffer.buffer(sb.toString()));
  }

  /** An event with an id and empty data: the client's resume point (SSE polling). */
  void priming(String eventId, long retryMs) {
    enqueue(Buffer.buffer("id: " + eventId + "\nretry: " + retryMs + "\ndata: \n\n"));
  }

  /** An SSE comment: keeps idle proxies from closing the stream and detects dead peers. */
  void keepAlive() {
    if (started && pending.isEmpty()) {
      enqueue(Buffer.buffer(": keepalive\n\n"));
    }
  }

  void end() {
    endRequested = true;
    if (!started) {
      start();
    }
    flush();
  }

  boolean closed() {
    return closed;
  }

  void markClosed() {
    closed = true;
    pending.clear();
  }

  private void enqueue(Buffer b) {
    if (closed) {
      return;
    }
    pending.addLast(b);
    if (pending.size() > MAX_PENDING) {
      closed = true;
      pending.clear();
      response.reset();
      return;
    }
    flush();
  }

  private void flush() {
    if (!started || closed) {
      return;
    }
    while (!pending.isEmpty() && !response.writeQueueFull()) {
      response.write(pending.removeFirst());
    }
    if (pending.isEmpty() && endRequested) {
      closed = true;
      response.end();
    }
  }
}
