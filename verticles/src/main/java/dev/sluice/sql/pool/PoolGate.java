package dev.sluice.sql.pool;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * Admission to a network engine's query pool: at most {@code pool_size} calls hold or wait for a
 * connection in the driver's pool, the rest wait here in {@link FairQueue} order. Runs on the
 * executor verticle's context.
 */
final class PoolGate {

  /** A call's place: waiting in the queue, then holding one of the pool's slots until {@link #release}. */
  static final class Ticket {
    private final Promise<Ticket> granted = Promise.promise();
    private FairQueue.Entry<Ticket> entry;
    private long startedAt;
    private boolean holding;
    private double queuedMs;

    double queuedMs() {
      return queuedMs;
    }
  }

  private final FairQueue<Ticket> queue;
  private final int slots;
  private int held;

  PoolGate(ConnectionConfig cfg, QueueMeters meters) {
    this.slots = Math.max(1, cfg.poolSize());
    this.queue = new FairQueue<>(cfg.id(), cfg.queue(), cfg.maxWaitQueue(), slots, meters);
  }

  /** A ticket whose {@link Ticket#granted} completes when a slot is the call's; busy when it may not wait. */
  Ticket enter(Caller caller) {
    SqlError busy = queue.refusal(caller, "connections", held < slots);
    Ticket t = new Ticket();
    if (busy != null) {
      t.granted.fail(busy);
      return t;
    }
    t.entry = queue.add(t, caller);
    pump();
    return t;
  }

  Future<Ticket> granted(Ticket t) {
    return t.granted.future();
  }

  /** Gives up a ticket still waiting (deadline, cancel); true when it was still in the queue. */
  boolean leave(Ticket t, SqlError why) {
    if (t.entry != null && queue.remove(t.entry)) {
      t.granted.tryFail(why);
      return true;
    }
    return false;
  }

  /** Returns a granted ticket's slot; the call's engine time teaches the queue its cost. */
  void release(Ticket t) {
    if (!t.holding) {
      return;
    }
    t.holding = false;
    held--;
    queue.finished(t.entry, (System.nanoTime() - t.startedAt) / 1e6);
    pump();
  }

  int waiting() {
    return queue.size();
  }

  private void pump() {
    FairQueue.Entry<Ticket> e;
    while (held < slots && (e = queue.next()) != null) {
      Ticket t = e.item();
      held++;
      t.holding = true;
      t.startedAt = System.nanoTime();
      t.queuedMs = e.queuedMs();
      t.granted.complete(t);
    }
  }
}
