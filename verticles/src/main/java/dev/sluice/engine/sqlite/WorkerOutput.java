package dev.sluice.engine.sqlite;

import dev.sluice.bus.JsonBytes;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker's stdout. Answers to the jobs of one read wait there to leave in one write, which
 * spares the gateway a wake-up per rider; progress leaves at once. A job that runs past a moment
 * must not keep the answers computed before it: a rider that turned slow would hold its batch's
 * quick answers until its deadline, when the gateway kills the worker and counts them as timed out.
 * So a watcher thread writes them out once the job behind them has run {@link #HOLD_MS}.
 */
final class WorkerOutput {

  /** How long a job may run before the answers waiting behind it are written anyway. */
  static final long HOLD_MS = 5;
  /** The watcher stops ticking after this long without a job behind held answers, until the next. */
  private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(HOLD_MS);

  private final PrintStream out;
  /** The answer line being written: one buffer for the worker's life, not 4 KB per answer. */
  private ByteArrayOutputStream line = new ByteArrayOutputStream(4_096);
  /** Answers written to the buffer but not flushed (the worker's main thread only). */
  private boolean held;
  /** When the job now running started, if answers wait behind it; 0 otherwise. */
  private volatile long holdingSince;
  private volatile boolean watcherAsleep;
  private final Thread watcher;

  WorkerOutput(OutputStream stdout) {
    // PrintStream: its writes and flushes lock the stream, so the watcher's flush never cuts a line
    this.out = new PrintStream(new java.io.BufferedOutputStream(stdout, 1 << 16), false, StandardCharsets.UTF_8);
    this.watcher = new Thread(this::watch, "held-answers");
    watcher.setDaemon(true);
    watcher.start();
  }

  /** Written at once: the ready line, progress, a fatal error. */
  void now(JsonObject message) {
    write(message);
    out.flush();
    held = false;
  }

  /** Held until the jobs read with this one are done ({@link #drained}), or one runs past a moment. */
  void answer(JsonObject message) {
    write(message);
    held = true;
  }

  /** A job starts: if answers wait, the watcher times it. */
  void jobStarts() {
    if (held) {
      holdingSince = System.nanoTime();
      if (watcherAsleep) {
        LockSupport.unpark(watcher);
      }
    }
  }

  void jobEnded() {
    if (holdingSince != 0) {
      holdingSince = 0;
    }
  }

  /** Every job read so far is answered: write the answers out before the next read may block. */
  void drained() {
    if (held) {
      out.flush();
      held = false;
    }
  }

  private void write(JsonObject message) {
    ByteArrayOutputStream bytes = line;
    bytes.reset();
    JsonBytes.write(message, bytes);
    bytes.write('\n');
    try {
      bytes.writeTo(out);
    } catch (IOException printStreamsDoNotThrow) {
      throw new UncheckedIOException(printStreamsDoNotThrow);
    }
    if (bytes.size() > 1 << 20) {
      line = new ByteArrayOutputStream(4_096); // a large result's buffer is not kept
    }
  }

  /**
   * Ticks every {@link #HOLD_MS} while jobs run behind held answers (and a while after, so a busy
   * worker is not woken per batch), then sleeps until the next such job.
   */
  private void watch() {
    long lastHeld = 0;
    long flushedFor = 0;
    while (true) {
      long since = holdingSince;
      long now = System.nanoTime();
      if (since != 0) {
        lastHeld = now;
        if (now - since >= HOLD_NANOS && since != flushedFor) {
          flushedFor = since;
          out.flush();
        }
        LockSupport.parkNanos(HOLD_NANOS);
      } else if (now - lastHeld < LINGER_NANOS) {
        LockSupport.parkNanos(HOLD_NANOS);
      } else {
        watcherAsleep = true;
        if (holdingSince == 0) {
          LockSupport.park(this);
        }
        watcherAsleep = false;
      }
    }
  }
}
