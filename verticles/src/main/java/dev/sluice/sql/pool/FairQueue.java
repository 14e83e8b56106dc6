package dev.sluice.sql.pool;

import dev.sluice.config.QueuePolicy;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The bounded wait queue in front of one pool (of connections or SQLite workers), served either
 * in arrival order ({@link QueuePolicy.Order#FIFO}) or fairly ({@link QueuePolicy.Order#FAIR}).
 *
 * <p>Fair order is weighted fair queuing on two levels, charged in expected engine time: the
 * principal whose weighted service would end first counting the call goes next, and within it the
 * session whose service would. A call's charge is its expected cost (the {@link CostHistory} of its
 * fingerprint), corrected by the real elapsed time when it ends unless it was expected short and
 * stayed short (see {@link #finished}), so a principal's share of the
 * pool's time follows its weight however many sessions it opens, and a cheap call passes queued
 * expensive ones (it is charged little, so it finishes its round first). Standings closer than
 * {@link #TOLERANCE_MS} count as equal and go in arrival order. A
 * principal or session that comes back after a pause starts at the current virtual time: idle
 * time earns no credit to flood with later.
 *
 * <p>With {@link QueuePolicy#shortReserve()} slots reserved, calls expected to take at least
 * {@link QueuePolicy#shortMs()} may hold at most {@code poolSize - shortReserve} slots while short
 * calls are about (one arrived within {@link #RESERVE_HOLD_MS}); with none about, long calls may
 * use the whole pool, so a pool serving only heavy work loses nothing to the reserve.
 *
 * <p>Not thread-safe: owned by one pool on its verticle's context.
 */
public final class FairQueue<T> {

  /** One waiting call. */
  public static final class Entry<T> {
    private final T item;
    private final Caller caller;
    private final double expectedMs;
    private final boolean heavy;
    private final long seq;
    private final long enqueuedAt = System.nanoTime();
    private boolean queued = true;

    private Entry(T item, Caller caller, double expectedMs, boolean heavy, long seq) {
      this.item = item;
      this.caller = caller;
      this.expectedMs = expectedMs;
      this.heavy = heavy;
      this.seq = seq;
    }

    public T item() {
      return item;
    }

    /** Time spent queued, in fractional milliseconds, measured when it left the queue (or now). */
    public double queuedMs() {
      return (System.nanoTime() - enqueuedAt) / 1e6;
    }
  }

  /** Service received so far, in virtual milliseconds; per principal (weighted) or per session. */
  private static final class Flow<T> {
    double pass;
    final ArrayDeque<Entry<T>> entries = new ArrayDeque<>();
  }

  private static final class PrincipalFlow<T> {
    final int weight;
    double pass;
    double sessionClock;
    int waiting;
    double waitingCostMs;
    /** Scratch of {@link #nextFair}: the least session finish, and the principal's own finish. */
    double leastSession;
    double finish;
    final Map<String, Flow<T>> sessions = new LinkedHashMap<>();
    /** Sessions not waiting keep their standing for a while, bounded. */
    PrincipalFlow(int weight) {
      this.weight = Math.max(1, weight);
    }

    final Map<String, Double> idleSessions = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
        return size() > MAX_IDLE_SESSIONS;
      }
    };
  }

  /**
   * How long the reserve stands after the last short call arrived: longer than an interactive
   * agent's pause between calls, so it is up whenever one is at work; a pool that saw no short
   * call for a minute lets long calls have every slot (the next short call then waits once).
   */
  static final long RESERVE_HOLD_MS = 60_000;
  static final int MAX_IDLE_SESSIONS = 4_096;
  /** Virtual finishes closer than this are equal standing; see {@link #nextFair}. */
  static final double TOLERANCE_MS = 10;
  static final int MAX_IDLE_PRINCIPALS = 4_096;

  private final String connectionId;
  private final QueuePolicy policy;
  private final int capacity;
  private final int poolSize;
  private final QueueMeters meters;
  private final CostHistory history;
  private final Map<String, PrincipalFlow<T>> principals = new HashMap<>();
  /** Arrival order, for FIFO; in FAIR order the flows hold the entries. */
  private final ArrayDeque<Entry<T>> arrivals = new ArrayDeque<>();
  private double clock;
  private long seq;
  private int size;
  private double waitingCostMs;
  private int running;
  private int runningHeavy;
  private long lastShortAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(RESERVE_HOLD_MS) - 1;

  public FairQueue(String connectionId, QueuePolicy policy, int capacity, int poolSize, QueueMeters meters) {
    this.connectionId = connectionId;
    this.policy = policy;
    this.capacity = capacity;
    this.poolSize = Math.max(1, poolSize);
    this.meters = meters;
    this.history = new CostHistory(policy.shortMs());
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public int waiting(String principal) {
    PrincipalFlow<T> p = principals.get(principal);
    return p == null ? 0 : p.waiting;
  }

  public double expectedMs(Caller caller) {
    return history.expectedMs(caller.costKey());
  }

  /**
   * The busy answer for a call that may not wait, or null when it may: the whole queue or the
   * principal's share of it is full ({@code slotFree}: a slot is free now, so an empty queue takes
   * the call even with no room to wait). {@code retryAfterMs} is the time the calls ahead are expected
   * to hold the pool, between 250 ms and 2 s.
   */
  public SqlError refusal(Caller caller, String what, boolean slotFree) {
    if (slotFree && size == 0) {
      return null;
    }
    int perPrincipal = policy.maxPerPrincipal() > 0 ? Math.min(policy.maxPerPrincipal(), capacity) : capacity;
    PrincipalFlow<T> p = principals.get(caller.principal());
    if (size >= capacity) {
      return new SqlError(ErrorType.BUSY, "all " + poolSize + " " + what + " of '" + connectionId
          + "' are busy and " + size + " calls are already waiting")
          .with("retryAfterMs", retryAfter(waitingCostMs)).with("scope", "connection");
    }
    if (p != null && p.waiting >= perPrincipal) {
      return new SqlError(ErrorType.BUSY, "principal '" + caller.principal() + "' already has " + p.waiting
          + " calls waiting for '" + connectionId + "' (at most " + perPrincipal + ")")
          .with("retryAfterMs", retryAfter(p.waitingCostMs)).with("scope", "principal");
    }
    return null;
  }

  private long retryAfter(double costAheadMs) {
    return Math.max(250, Math.min(2_000, Math.round(costAheadMs / poolSize)));
  }

  /** Queues a call (check {@link #refusal} first); the owner then offers its free slots to {@link #next}. */
  public Entry<T> add(T item, Caller caller) {
    double expected = history.expectedMs(caller.costKey());
    Entry<T> e = new Entry<>(item, caller, expected, expected >= policy.shortMs(), seq++);
    if (!e.heavy) {
      lastShortAt = e.enqueuedAt;
    }
    PrincipalFlow<T> p = principals.computeIfAbsent(caller.principal(),
        k -> new PrincipalFlow<>(policy.weight(k)));
    if (p.waiting == 0) {
      p.pass = Math.max(p.pass, clock);
    }
    if (policy.order() == QueuePolicy.Order.FIFO) {
      arrivals.addLast(e);
    } else {
      Flow<T> s = p.sessions.get(caller.session());
      if (s == null) {
        s = new Flow<>();
        Double before = p.idleSessions.remove(caller.session());
        s.pass = Math.max(before == null ? 0 : before, p.sessionClock);
        p.sessions.put(caller.session(), s);
      }
      s.entries.addLast(e);
    }
    p.waiting++;
    p.waitingCostMs += expected;
    size++;
    waitingCostMs += expected;
    meters.depth(connectionId, caller.principal(), p.waiting);
    return e;
  }

  /** Takes a call out of the queue without running it (its deadline came, it was cancelled). */
  public boolean remove(Entry<T> e) {
    if (!e.queued) {
      return false;
    }
    PrincipalFlow<T> p = principals.get(e.caller.principal());
    if (policy.order() == QueuePolicy.Order.FIFO) {
      arrivals.remove(e);
    } else {
      Flow<T> s = p.sessions.get(e.caller.session());
      s.entries.remove(e);
      if (s.entries.isEmpty()) {
        p.sessions.remove(e.caller.session());
        p.idleSessions.put(e.caller.session(), s.pass);
      }
    }
    left(p, e);
    return true;
  }

  /**
   * The call to run on a slot that just became free, or null when none may: the queue is empty, or
   * only calls expected to be long wait and the short-call reserve keeps the slot.
   */
  public Entry<T> next() {
    return next(item -> true);
  }

  /**
   * Like {@link #next()}, but the call that is next in order must also be {@code admissible} now
   * (a call that needs a whole connection while only shared seats are free); when it is not,
   * nothing is served, so that calls behind it cannot pass it for as long as they keep coming.
   */
  public Entry<T> next(Predicate<T> admissible) {
    boolean reserved = policy.shortReserve() > 0
        && System.nanoTime() - lastShortAt < TimeUnit.MILLISECONDS.toNanos(RESERVE_HOLD_MS);
    boolean heavyAllowed = !reserved || runningHeavy < poolSize - Math.min(policy.shortReserve(), poolSize - 1);
    Entry<T> e = policy.order() == QueuePolicy.Order.FIFO ? nextArrival(heavyAllowed, admissible)
        : nextFair(heavyAllowed, admissible);
    if (e == null) {
      return null;
    }
    PrincipalFlow<T> p = principals.get(e.caller.principal());
    left(p, e);
    running++;
    if (e.heavy) {
      runningHeavy++;
    }
    meters.waited(connectionId, e.caller.principal(), e.queuedMs());
    return e;
  }

  /**
   * A call that was running was stopped for a reason not its own (the worker it shared was killed
   * for another call): it no longer runs, and its time teaches nothing about its cost. The owner
   * queues it again with {@link #add}.
   */
  public void stopped(Entry<T> e) {
    running--;
    if (e.heavy) {
      runningHeavy--;
    }
  }

  /**
   * A call that ran ended after {@code engineMs}: learn its cost, and charge the difference from
   * what it was charged when it started unless the call was expected short and was short. A short
   * call's deviation is mostly scheduling noise (a collector pause, a busy event loop) that hit
   * every call running at that moment; charged to the few sessions it happened to land on, each
   * would wait until every other session had caught up with it, which with many sessions is tens
   * of rounds for a pause of a few milliseconds. A call that turned out long is charged in full.
   */
  public void finished(Entry<T> e, double engineMs) {
    running--;
    if (e.heavy) {
      runningHeavy--;
    }
    history.record(e.caller.costKey(), engineMs);
    boolean noise = !e.heavy && engineMs < policy.shortMs();
    if (policy.order() == QueuePolicy.Order.FAIR && !noise) {
      PrincipalFlow<T> p = principals.get(e.caller.principal());
      if (p != null) {
        double delta = engineMs - e.expectedMs;
        p.pass += delta / p.weight;
        Flow<T> s = p.sessions.get(e.caller.session());
        if (s != null) {
          s.pass += delta;
        } else {
          p.idleSessions.computeIfPresent(e.caller.session(), (k, v) -> v + delta);
        }
      }
    }
  }

  private Entry<T> nextArrival(boolean heavyAllowed, Predicate<T> admissible) {
    for (Iterator<Entry<T>> it = arrivals.iterator(); it.hasNext(); ) {
      Entry<T> e = it.next();
      if (heavyAllowed || !e.heavy) {
        if (!admissible.test(e.item)) {
          return null;
        }
        it.remove();
        return e;
      }
    }
    return null;
  }

  /**
   * The principal whose service would end first counting this call (its pass plus the call's
   * weighted expected cost: the virtual finish of weighted fair queuing), then within it the
   * session whose would. Ordering by finish rather than by start is what lets a short call pass
   * long ones of sessions that are no further behind: it finishes a round long before they do.
   *
   * <p>Finishes within {@link #TOLERANCE_MS} of the least count as equal, and among those the
   * oldest call goes first. Without it, sessions at nearly equal standing (the common case: many
   * agents running small statements) were served in whatever order their fractions of a
   * millisecond fell, and a call of a session one call ahead was passed by every newer call of the
   * others until they had caught up; under a steady load that made the queue's wait tail several
   * times longer than arrival order's. A principal or session gets at most the tolerance more
   * than its share before others pass it; shares over time are unchanged.
   */
  private Entry<T> nextFair(boolean heavyAllowed, Predicate<T> admissible) {
    // each principal's standing: the least session finish, then its own finish with the cheapest
    // call among the sessions at that standing
    double leastPrincipal = Double.POSITIVE_INFINITY;
    for (PrincipalFlow<T> p : principals.values()) {
      p.leastSession = Double.POSITIVE_INFINITY;
      p.finish = Double.POSITIVE_INFINITY;
      if (p.waiting == 0) {
        continue;
      }
      for (Flow<T> s : p.sessions.values()) {
        Entry<T> head = servable(s, heavyAllowed);
        if (head != null) {
          p.leastSession = Math.min(p.leastSession, s.pass + head.expectedMs);
        }
      }
      for (Flow<T> s : p.sessions.values()) {
        Entry<T> head = servable(s, heavyAllowed);
        if (head != null && s.pass + head.expectedMs <= p.leastSession + TOLERANCE_MS) {
          p.finish = Math.min(p.finish, p.pass + head.expectedMs / p.weight);
        }
      }
      leastPrincipal = Math.min(leastPrincipal, p.finish);
    }
    PrincipalFlow<T> bestP = null;
    Flow<T> bestS = null;
    Entry<T> best = null;
    for (PrincipalFlow<T> p : principals.values()) {
      if (p.finish > leastPrincipal + TOLERANCE_MS) {
        continue;
      }
      for (Flow<T> s : p.sessions.values()) {
        Entry<T> head = servable(s, heavyAllowed);
        if (head != null && s.pass + head.expectedMs <= p.leastSession + TOLERANCE_MS
            && (best == null || head.seq < best.seq)) {
          bestP = p;
          bestS = s;
          best = head;
        }
      }
    }
    if (best == null || !admissible.test(best.item)) {
      return null;
    }
    bestS.entries.pollFirst();
    // the clocks advance to the start tag of what is served; charges are in expected engine time
    clock = Math.max(clock, bestP.pass);
    bestP.pass += best.expectedMs / bestP.weight;
    bestP.sessionClock = Math.max(bestP.sessionClock, bestS.pass);
    bestS.pass += best.expectedMs;
    if (bestS.entries.isEmpty()) {
      bestP.sessions.remove(best.caller.session());
      bestP.idleSessions.put(best.caller.session(), bestS.pass);
    }
    return best;
  }

  private static <T> Entry<T> servable(Flow<T> s, boolean heavyAllowed) {
    Entry<T> head = s.entries.peekFirst();
    return head == null || !heavyAllowed && head.heavy ? null : head;
  }

  private void left(PrincipalFlow<T> p, Entry<T> e) {
    e.queued = false;
    p.waiting--;
    p.waitingCostMs -= e.expectedMs;
    size--;
    waitingCostMs -= e.expectedMs;
    meters.depth(connectionId, e.caller.principal(), p.waiting);
    if (principals.size() > MAX_IDLE_PRINCIPALS && p.waiting == 0 && p.pass <= clock) {
      principals.remove(e.caller.principal());
    }
  }
}
