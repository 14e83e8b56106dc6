package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated AI agent: a real MCP session that, after its ramp-up delay, calls tools picked
 * from the mix until the deadline or the shared call budget runs out, then ends its session.
 */
final class VirtualAgent {

  private final Vertx vertx;
  private final McpSession session;
  private final Mix mix;
  private final Stats stats;
  private final AtomicLong budget;
  private final long deadlineNanos;
  private final long thinkTimeMs;
  private final boolean openStream;

  VirtualAgent(Vertx vertx, McpSession session, Mix mix, Stats stats, AtomicLong budget, long deadlineNanos,
      long thinkTimeMs, boolean openStream) {
    this.vertx = vertx;
    this.session = session;
    this.mix = mix;
    this.stats = stats;
    this.budget = budget;
    this.deadlineNanos = deadlineNanos;
    this.thinkTimeMs = thinkTimeMs;
    this.openStream = openStream;
  }

  /** Runs the whole agent life; the future completes (never fails) once its session is closed. */
  Future<Void> run(long startDelayMs) {
    Promise<Void> done = Promise.promise();
    Runnable go = () -> setUp()
        .onFailure(err -> stats.sessionFailed(err.getMessage() == null ? "setup" : err.getMessage()))
        .onSuccess(v -> step(done))
        .onFailure(err -> done.tryComplete());
    if (startDelayMs > 0) {
      vertx.setTimer(startDelayMs, t -> go.run());
    } else {
      go.run();
    }
    return done.future().eventually(session::close);
  }

  private Future<Void> setUp() {
    long start = System.nanoTime();
    Future<Void> opened = session.open();
    if (openStream) {
      opened = opened.compose(v -> {
        long streamStart = System.nanoTime();
        return session.openStream().onSuccess(x -> stats.streamOpened(System.nanoTime() - streamStart));
      });
    }
    return opened.onSuccess(v -> stats.sessionOpened(System.nanoTime() - start));
  }

  // A callback-driven loop rather than a compose chain, which would grow with every call.
  private void step(Promise<Void> done) {
    if (System.nanoTime() >= deadlineNanos || budget.getAndDecrement() <= 0) {
      done.tryComplete();
      return;
    }
    session.call(mix.pick()).onComplete(ar -> {
      if (ar.succeeded()) {
        stats.record(ar.result(), System.nanoTime());
      }
      if (thinkTimeMs > 0) {
        vertx.setTimer(thinkTimeMs, t -> step(done));
      } else {
        vertx.runOnContext(v -> step(done));
      }
    });
  }
}
