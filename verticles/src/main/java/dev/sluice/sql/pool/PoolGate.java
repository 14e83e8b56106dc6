package dev.sluice.sql.pool;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Admission to a network engine's query pool: calls hold or wait for the pool's {@code pool_size}
 * connections, the rest wait here in {@link FairQueue} order. Runs on the executor verticle's
 * context.
 *
 * <p>A call holds a connection alone, or rides one: a small session-neutral read that ran short
 * last time may share a connection with up to {@code pipeline_depth - 1} others (a {@link Seat}),
 * its statement written behind theirs, so the backend answers them all without sleeping in
 * between. Riders spread over the connections before they stack. Queue order stays strict: when
 * the call that is next needs a whole connection and none is free, no rider passes it, so the
 * shared connections drain (their reads are short) and it gets one.
 */
final class PoolGate {

  /** A call's place: waiting in the queue, then holding a connection (or a seat on one) until {@link #release}. */
  static final class Ticket {
    private final Promise<Ticket> granted = Promise.promise();
    private final boolean rides;
    private FairQueue.Entry<Ticket> entry;
    private long startedAt;
    private boolean holding;
    private double queuedMs;
    private double answeredMs = -1;
    private Seat seat;

    private Ticket(boolean rides) {
      this.rides = rides;
    }

    double queuedMs() {
      return queuedMs;
    }

    /** The shared connection this call rides, or null when it holds one alone. */
    Seat seat() {
      return seat;
    }
  }

  /** One connection shared by riders; leased from the driver's pool by its first rider, returned by its last. */
  static final class Seat {
    private int riders;
    private Future<EngineAdapter.Lease> lease;
    private long lastAnswerAt;

    /** The connection's lease, asked for once (by the first rider to need it). */
    Future<EngineAdapter.Lease> lease(Supplier<Future<EngineAdapter.Lease>> open) {
      if (lease == null) {
        lease = open.get();
      }
      return lease;
    }

    /**
     * A rider's answer came: the time its statement had the backend, which started when the
     * answer before it on this connection came (the backend answers in order) or when it was
     * granted, whichever was later.
     */
    double answered(Ticket t) {
      long now = System.nanoTime();
      double ms = (now - Math.max(lastAnswerAt, t.startedAt)) / 1e6;
      lastAnswerAt = now;
      return ms;
    }
  }

  private final FairQueue<Ticket> queue;
  private final int connections;
  private final int depth;
  /** A read that took longer than this last time holds a connection alone: riders behind it would wait. */
  private final long rideMaxMs;
  private final RecentReadTimes recent = new RecentReadTimes();
  /** Connections held by a call alone. */
  private int whole;
  private final List<Seat> seats = new ArrayList<>();
  private int riders;

  PoolGate(ConnectionConfig cfg, QueueMeters meters) {
    this.connections = Math.max(1, cfg.poolSize());
    this.depth = cfg.queue().pipelineDepth();
    this.rideMaxMs = cfg.queue().rideMaxMs();
    this.queue = new FairQueue<>(cfg.id(), cfg.queue(), cfg.maxWaitQueue(), connections, meters);
  }

  /**
   * Whether a read of this text may ride a shared connection, as far as the gate knows: the pool
   * pipelines, and the same text ran in at most {@code ride_max_ms} the last time it was timed.
   * The engine still has to say the read cannot touch the session.
   */
  boolean mayRide(String sql) {
    return depth > 1 && recent.atMost(sql, rideMaxMs);
  }

  /**
   * A ticket whose {@link Ticket#granted} completes when a connection (or a seat on one, when
   * {@code rides}) is the call's; busy when it may not wait.
   */
  Ticket enter(Caller caller, boolean rides) {
    SqlError busy = queue.refusal(caller, "connections", free() > 0 || rides && roomiest() != null);
    Ticket t = new Ticket(rides);
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

  /**
   * Returns a granted ticket's connection or seat; the call's engine time teaches the queue its
   * cost and, for a one-trip read ({@code sql} non-null), whether that text may ride next time
   * (its statement's own time: until its answer, and for a rider from the answer before it; one
   * {@code cutShort} counts as slow: {@link RecentReadTimes#record}).
   *
   * @return the seat's lease when this was its last rider (the caller hands it back to the
   *     driver's pool), else null
   */
  Future<EngineAdapter.Lease> release(Ticket t, String sql, boolean cutShort) {
    if (!t.holding) {
      return null;
    }
    t.holding = false;
    double heldMs = (System.nanoTime() - t.startedAt) / 1e6;
    // a rider's own statement time, not the riders' ahead of it on the wire
    double engineMs = t.answeredMs >= 0 ? t.answeredMs : heldMs;
    Future<EngineAdapter.Lease> emptied = null;
    if (t.seat != null) {
      riders--;
      if (--t.seat.riders == 0) {
        seats.remove(t.seat);
        emptied = t.seat.lease;
      }
    } else {
      whole--;
    }
    if (sql != null) {
      recent.record(sql, engineMs, cutShort);
    }
    queue.finished(t.entry, t.seat != null ? engineMs : heldMs);
    pump();
    return emptied;
  }

  /**
   * A seat whose connection could not be leased, or was lost under a rider, takes no more riders;
   * those on it end with it, and the last hands back what is left of the lease.
   */
  void failed(Seat s) {
    seats.remove(s);
  }

  /** A one-trip read's answer came: its statement's time, as {@link #release} will count it. */
  void answered(Ticket t) {
    if (t.holding && t.answeredMs < 0) {
      t.answeredMs = t.seat != null ? t.seat.answered(t) : (System.nanoTime() - t.startedAt) / 1e6;
    }
  }

  int waiting() {
    return queue.size();
  }

  /** Calls riding shared connections now. */
  int riding() {
    return riders;
  }

  private int free() {
    return connections - whole - seats.size();
  }

  /** The open seat with the fewest riders that has room, or null. */
  private Seat roomiest() {
    Seat best = null;
    for (Seat s : seats) {
      if (s.riders < depth && (best == null || s.riders < best.riders)) {
        best = s;
      }
    }
    return best;
  }

  private boolean admissible(Ticket t) {
    return free() > 0 || t.rides && roomiest() != null;
  }

  private void pump() {
    FairQueue.Entry<Ticket> e;
    while ((free() > 0 || roomiest() != null) && (e = queue.next(this::admissible)) != null) {
      Ticket t = e.item();
      if (t.rides) {
        Seat s = roomiest();
        if (s == null || s.riders > 0 && free() > 0) {
          s = new Seat(); // spread over the connections before stacking on one
          seats.add(s);
        }
        s.riders++;
        riders++;
        t.seat = s;
      } else {
        whole++;
      }
      t.holding = true;
      t.startedAt = System.nanoTime();
      t.queuedMs = e.queuedMs();
      t.granted.complete(t);
    }
  }
}
