package dev.sluice.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * One HTTP verticle's SSE writes: it opens the verticle's streams, and the events that can wait a
 * little are written {@link #DELAY_MS} after their stream first asked, by one timer per event
 * loop (not one per stream and event) that wakes for the earliest stream due. Lives on the
 * verticle's event loop.
 *
 * <p>Each stream waits its own delay. A timer shared from the first request of a burst wrote a
 * stream that asked late in the burst almost at once, so about one call in five under load left in
 * two socket writes (progress, then the result) although it answered well within the delay.
 */
final class SseFlushTick {

  /**
   * How long a progress event may wait for the rest of its call. Most small calls answer within
   * it (their progress then leaves with the result, in one write); it is well below what a person
   * or an agent watching progress can tell apart.
   */
  static final long DELAY_MS = 10;
  private static final long DELAY_NANOS = DELAY_MS * 1_000_000;
  /** A stream due within this of a timer's firing is written by it rather than by another timer. */
  private static final long SLACK_NANOS = 500_000;

  private final Vertx vertx;
  private final Context context;
  // the streams waiting, in the order they asked (so in order of their due times): a ring buffer
  // of streams and due times, so that waiting allocates nothing per event
  private SseSink[] sinks = new SseSink[64];
  private long[] dueNanos = new long[64];
  private int head;
  private int size;
  private boolean armed;

  SseFlushTick(Vertx vertx, Context context) {
    this.vertx = vertx;
    this.context = context;
  }

  Vertx vertx() {
    return vertx;
  }

  /** A stream on {@code response}, which belongs to this tick's event loop. */
  SseSink open(HttpServerResponse response) {
    return new SseSink(response, context, this);
  }

  /**
   * Writes what {@code sink} holds back {@link #DELAY_MS} from now ({@link SseSink#deferredFlushDue}
   * with the returned time, which the stream keeps: an earlier entry of a stream that was written
   * and then asked again must not write it early).
   */
  long add(SseSink sink) {
    long due = System.nanoTime() + DELAY_NANOS;
    if (size == sinks.length) {
      grow();
    }
    int tail = (head + size) & (sinks.length - 1);
    sinks[tail] = sink;
    dueNanos[tail] = due;
    size++;
    if (!armed) {
      arm(DELAY_NANOS);
    }
    return due;
  }

  private void arm(long inNanos) {
    armed = true;
    vertx.setTimer(Math.max(1, (inNanos + 999_999) / 1_000_000), t -> fire());
  }

  private void fire() {
    armed = false;
    long now = System.nanoTime();
    while (size > 0 && dueNanos[head] - now <= SLACK_NANOS) {
      SseSink sink = sinks[head];
      long due = dueNanos[head];
      sinks[head] = null;
      head = (head + 1) & (sinks.length - 1);
      size--;
      sink.deferredFlushDue(due);
    }
    // a stream written above may have asked again and armed the next timer already
    if (size > 0 && !armed) {
      arm(dueNanos[head] - now);
    }
  }

  private void grow() {
    SseSink[] s = new SseSink[sinks.length * 2];
    long[] d = new long[sinks.length * 2];
    for (int i = 0; i < size; i++) {
      int from = (head + i) & (sinks.length - 1);
      s[i] = sinks[from];
      d[i] = dueNanos[from];
    }
    sinks = s;
    dueNanos = d;
    head = 0;
  }
}
