package dev.sluice.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;

/**
 * One HTTP verticle's SSE writes: it opens the verticle's streams, and the events that can wait a
 * little are written together when one timer fires, {@link #DELAY_MS} after the first of them
 * asked. One timer per loop and burst, not one per stream and event. Lives on the verticle's
 * event loop.
 */
final class SseFlushTick {

  /**
   * How long a progress event may wait for the rest of its call. Most small calls answer within
   * it (their progress then leaves with the result, in one write); it is well below what a person
   * or an agent watching progress can tell apart.
   */
  static final long DELAY_MS = 10;

  private final Vertx vertx;
  private final Context context;
  private ArrayList<SseSink> due = new ArrayList<>();
  private boolean armed;

  SseFlushTick(Vertx vertx, Context context) {
    this.vertx = vertx;
    this.context = context;
  }

  /** A stream on {@code response}, which belongs to this tick's event loop. */
  SseSink open(HttpServerResponse response) {
    return new SseSink(response, context, this);
  }

  void add(SseSink sink) {
    due.add(sink);
    if (!armed) {
      armed = true;
      vertx.setTimer(DELAY_MS, t -> fire());
    }
  }

  private void fire() {
    armed = false;
    ArrayList<SseSink> now = due;
    due = new ArrayList<>();
    for (SseSink sink : now) {
      sink.deferredFlushDue();
    }
  }
}
