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
  private final Routes routes;
  private final NodeKiller killer;

  VirtualAgent(Vertx vertx, McpSession session, Mix mix, Stats stats, AtomicLong budget, long deadlineNanos,
      long thinkTimeMs, boolean openStream) {
    this(vertx, session, mix, stats, budget, deadlineNanos, thinkTimeMs, openStream, null, NodeKiller.NONE);
  }

  /** An agent behind a load balancer ({@code routes}) that survives the loss of a node. */
  VirtualAgent(Vertx vertx, McpSession session, Mix mix, Stats stats, AtomicLong budget, long deadlineNanos,
      long thinkTimeMs, boolean openStream, Routes routes, NodeKiller killer) {
    this.routes = routes;
    this.killer = killer;
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
      CallOutcome o = ar.succeeded() ? nodeLoss(ar.result()) : null;
      if (o != null) {
        stats.record(o, System.nanoTime());
      }
      if (o != null && o.kind() == CallOutcome.Kind.EXPECTED_ERROR && "session_lost".equals(o.label())) {
        reinitialize(done, 20);
      } else if (thinkTimeMs > 0) {
        vertx.setTimer(thinkTimeMs, t -> step(done));
      } else {
        vertx.runOnContext(v -> step(done));
      }
    });
  }

  /**
   * After a node was killed, what its death explains is expected: a call cut off on the dead node
   * ({@code node_lost}; the node leaves the rotation) and a session that died with it (404, or the
   * relaying node's -32001: {@code session_lost}, re-initialized on a live node). Anything else
   * stays as it was.
   */
  private CallOutcome nodeLoss(CallOutcome o) {
    if (routes == null || o.kind() != CallOutcome.Kind.UNEXPECTED_ERROR || !killer.killed()) {
      return o;
    }
    String label = o.label();
    if (label.equals("http_404") || label.equals("rpc_-32001")) {
      return new CallOutcome(o.scenario(), o.latencyNanos(), o.firstProgressNanos(), o.progressEvents(),
          CallOutcome.Kind.EXPECTED_ERROR, "session_lost");
    }
    if (label.startsWith("io_")) {
      routes.markDown(session.callUrl());
      return new CallOutcome(o.scenario(), o.latencyNanos(), o.firstProgressNanos(), o.progressEvents(),
          CallOutcome.Kind.EXPECTED_ERROR, "node_lost");
    }
    return o;
  }

  private void reinitialize(Promise<Void> done, int attempts) {
    session.reopen().onComplete(ar -> {
      if (ar.succeeded()) {
        stats.sessionReinitialized();
        step(done);
      } else if (attempts > 0) {
        if (!String.valueOf(ar.cause().getMessage()).startsWith("initialize")) {
          // not an HTTP answer: the pick was the dead node, not yet out of rotation
          routes.markDown(session.lastUrl());
        }
        vertx.setTimer(100, t -> reinitialize(done, attempts - 1));
      } else {
        stats.sessionFailed("reinitialize_" + ar.cause().getMessage());
        done.tryComplete();
      }
    });
  }
}
