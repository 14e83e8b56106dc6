package dev.sluice.http;

import dev.sluice.bus.JsonBytes;
import dev.sluice.observability.TransportLog;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * Writes SSE events to one HTTP response with backpressure. Events that arrive before the
 * response is started are held; while the socket's write queue is full, events wait for drain; a
 * client that falls too far behind is disconnected (it can resume with Last-Event-ID, since the
 * session keeps a replay buffer) rather than growing memory without bound.
 *
 * <p>Writes are coalesced. The end of a stream (a call's result) is written at the end of the
 * loop's run, with everything still queued before it. Other events (headers, progress, server
 * notifications) wait up to {@link SseFlushTick#DELAY_MS} for more: a call that answers within
 * that time leaves in one socket write (headers, every progress event, the result, the end)
 * instead of one per progress step, and a long call's progress is late by at most that much. One
 * write per step was a third of the event loops' time in the engines benchmark, whose calls ask
 * for progress.
 */
final class SseSink {

  /** Pending events allowed before a slow client is cut off. */
  static final int MAX_PENDING = 1_024;
  /**
   * A burst this long (a Last-Event-ID replay) is written at once rather than at the end of the
   * loop's run, so only a client that really stops reading reaches {@link #MAX_PENDING}.
   */
  static final int WRITE_NOW_AT = 64;
  /** Each stream's keep-alive period. */
  static final long KEEPALIVE_MS = 20_000;
  /**
   * How often an event loop looks for streams whose keep-alive is due. One timer writing every
   * stream at once held an event loop for about 250 ms with 10,000 streams on a busy 2-core
   * machine (a ping stalled that long every 20 s); due in small batches, a tick writes a few dozen.
   */
  static final long KEEPALIVE_TICK_MS = 250;

  private final HttpServerResponse response;
  /** The event loop that owns the response: flushes are scheduled on it. */
  private final Context context;
  /** Where events that can wait a little wait for their write. */
  private final SseFlushTick tick;
  /** Made with the first event: most POSTs that could stream answer plain JSON and never need it. */
  private ArrayDeque<Buffer> pending;
  private boolean started;
  private boolean endRequested;
  private boolean closed;
  private boolean flushScheduled;
  private boolean flushDeferred;
  /** Until the next write, events leave at the end of the loop's run rather than after the delay. */
  private boolean prompt;
  /** When the tick writes what this stream defers now ({@link SseFlushTick#add}). */
  private long deferredDueNanos;
  /** When this stream's next keep-alive comment is due (System.currentTimeMillis). */
  private long keepAliveDueMs;

  SseSink(HttpServerResponse response, Context context, SseFlushTick tick) {
    this.response = response;
    this.context = context;
    this.tick = tick;
    // the first comment comes 10-20 s after opening, at random: streams opened in one burst (a
    // ramp, clients reconnecting after a restart) do not all need their comment in the same tick
    this.keepAliveDueMs = System.currentTimeMillis() + KEEPALIVE_MS / 2
        + java.util.concurrent.ThreadLocalRandom.current().nextLong(KEEPALIVE_MS / 2);
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
    response.drainHandler(v -> flush());
    // the headers leave with the first events, or alone once the tick is due: clients wait for
    // them before reading a stream that may stay quiet
    deferFlush();
  }

  /** The events that arrive next are written at the end of the loop's run, not after the delay. */
  void prompt() {
    prompt = true;
    if (flushDeferred) {
      scheduleFlush();
    }
  }

  boolean started() {
    return started;
  }

  void event(String eventId, JsonObject message) {
    // the JSON is encoded straight into the event's buffer: message.encode() went through databind
    // to a String, then a StringBuilder, then bytes, for each of a call's several events
    ByteBuf b = Unpooled.buffer(256);
    if (eventId != null) {
      b.writeBytes(ID).writeCharSequence(eventId, StandardCharsets.UTF_8);
      b.writeByte('\n');
    }
    b.writeBytes(MESSAGE_DATA);
    JsonBytes.append(message, b);
    b.writeBytes(EVENT_END);
    enqueue(BufferInternal.buffer(b), false);
  }

  private static final byte[] ID = "id: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MESSAGE_DATA = "event: message\ndata: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

  /** An event with an id and empty data: the client's resume point (SSE polling). */
  void priming(String eventId, long retryMs) {
    enqueue(Buffer.buffer("id: " + eventId + "\nretry: " + retryMs + "\ndata: \n\n"), false);
  }

  /**
   * An SSE comment when this stream's is due (then every {@link #KEEPALIVE_MS}): keeps idle
   * proxies from closing the stream and detects dead peers.
   */
  void keepAliveIfDue(long nowMs) {
    if (nowMs < keepAliveDueMs) {
      return;
    }
    keepAliveDueMs = nowMs + KEEPALIVE_MS;
    if (started && nothingPending()) {
      enqueue(Buffer.buffer(": keepalive\n\n"), true);
    }
  }

  void end() {
    endRequested = true;
    if (!started) {
      start();
    }
    scheduleFlush();
  }

  boolean closed() {
    return closed;
  }

  void markClosed() {
    closed = true;
    pending = null;
  }

  private boolean nothingPending() {
    return pending == null || pending.isEmpty();
  }

  private void enqueue(Buffer b, boolean now) {
    if (closed) {
      return;
    }
    if (pending == null) {
      pending = new ArrayDeque<>(8);
    }
    pending.addLast(b);
    if (pending.size() > MAX_PENDING) {
      closed = true;
      pending = null;
      TransportLog.error("http", null, "slow_consumer", "an SSE client fell " + MAX_PENDING
          + " events behind; its stream was reset (it may resume with Last-Event-ID)");
      response.reset();
      return;
    }
    if (pending.size() >= WRITE_NOW_AT) {
      flush();
    } else if (now || prompt) {
      scheduleFlush();
    } else {
      deferFlush();
    }
  }

  private void deferFlush() {
    if (!flushDeferred && !flushScheduled) {
      flushDeferred = true;
      deferredDueNanos = tick.add(this);
    }
  }

  /**
   * The tick is due for the deferral made at {@code dueNanos}: what waited is written, unless a
   * flush at the end of a run came first, or this is the entry of an earlier deferral.
   */
  void deferredFlushDue(long dueNanos) {
    if (flushDeferred && dueNanos == deferredDueNanos) {
      flushDeferred = false;
      flush();
    }
  }

  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      context.runOnContext(v -> {
        flushScheduled = false;
        flushDeferred = false;
        flush();
      });
    }
  }

  private void flush() {
    if (!started || closed) {
      return;
    }
    prompt = false;
    Buffer batch = null;
    if (!nothingPending() && !response.writeQueueFull()) {
      batch = pending.removeFirst();
      if (!pending.isEmpty()) {
        batch = batch.copy();
        while (!pending.isEmpty()) {
          batch.appendBuffer(pending.removeFirst());
        }
      }
    }
    if (nothingPending() && endRequested) {
      closed = true;
      if (batch == null) {
        response.end();
      } else {
        response.end(batch);
      }
    } else if (batch != null) {
      response.write(batch);
    } else if (!response.headWritten()) {
      response.writeHead();
    }
  }
}
