package dev.sluice.audit;

import dev.sluice.bus.JsonBytes;
import dev.sluice.config.AuditConfig;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail's JSON Lines sink. Event loops only {@link #record} (a non-blocking offer into a
 * bounded buffer); one writer thread drains it in batches, appends to the day's file, flushes and
 * fsyncs once per batch (at most {@link AuditConfig#flushMs()} apart), and rotates by size and by
 * UTC day. A crash loses at most the batch being written. When the buffer is full, records are
 * dropped and counted ({@code drop}), or {@link #saturated()} tells the dispatcher to refuse new
 * calls ({@code block}).
 */
public final class AuditTrail implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);
  private static final JsonObject STOP = new JsonObject();

  private final AuditConfig config;
  private final BlockingQueue<JsonObject> buffer;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final Thread writer;
  private volatile long lastDropLog;
  private FileChannel file;
  /** The writer thread's scratch for one encoded record. */
  private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(1_024);
  /** The writer thread's encoder into {@link #line}: one generator for all its records. */
  private final JsonBytes.Writer lineWriter = new JsonBytes.Writer(line);
  private static final int PENDING_BYTES = 256 * 1_024;
  /** A batch that grew the buffer past this (a burst of huge SQL) does not keep it. */
  private static final int KEPT_BUFFER_BYTES = 4 * 1_024 * 1_024;
  /** The writer thread's batch being written. */
  private Lines pending = new Lines(PENDING_BYTES);
  private Path path;
  private LocalDate day;
  private int index;
  private long size;

  private AuditTrail(AuditConfig config) {
    this.config = config;
    this.buffer = new ArrayBlockingQueue<>(config.buffer());
    this.writer = new Thread(this::drain, "sluice-audit");
    this.writer.setDaemon(true);
  }

  /** Opens the sink; a disabled trail records nothing. */
  public static AuditTrail open(AuditConfig config) {
    AuditTrail t = new AuditTrail(config);
    if (config.enabled()) {
      t.writer.start();
    }
    return t;
  }

  /** A trail whose writer never runs: the buffer only fills (tests of the overflow policies). */
  static AuditTrail stalled(AuditConfig config) {
    return new AuditTrail(config);
  }

  private volatile PgAuditSink postgres;

  /** Adds the PostgreSQL copy when configured (needs Vert.x, so it starts with the gateway). */
  public Future<Void> startPostgres(io.vertx.core.Vertx vertx) {
    if (!config.enabled() || config.postgresUrl() == null) {
      return Future.succeededFuture();
    }
    PgAuditSink sink = new PgAuditSink(vertx, config.postgresUrl(), config.postgresTable(), config.buffer(),
        config.flushMs());
    return sink.start().onSuccess(v -> postgres = sink);
  }

  public long postgresWritten() {
    PgAuditSink p = postgres;
    return p == null ? 0 : p.written();
  }

  public boolean enabled() {
    return config.enabled();
  }

  /** True when the policy is {@code block} and the buffer is full: new calls must be refused. */
  public boolean saturated() {
    return config.enabled() && "block".equals(config.onOverflow()) && buffer.remainingCapacity() == 0;
  }

  /** Never blocks. */
  public void record(JsonObject rec) {
    if (!config.enabled()) {
      return;
    }
    PgAuditSink p = postgres;
    if (p != null) {
      p.offer(rec);
    }
    if (!buffer.offer(rec)) {
      long n = dropped.incrementAndGet();
      long now = System.currentTimeMillis();
      if (now - lastDropLog > 10_000) {
        lastDropLog = now;
        LOG.error("AUDIT RECORDS DROPPED: {} so far; the audit writer is behind (audit.buffer {}, on_overflow {})",
            n, config.buffer(), config.onOverflow());
      }
    }
  }

  public long dropped() {
    return dropped.get();
  }

  public long written() {
    return written.get();
  }

  public Path dir() {
    return config.dir();
  }

  /** Writes what is buffered, fsyncs and stops the writer. */
  @Override
  public void close() {
    PgAuditSink p = postgres;
    postgres = null;
    if (p != null) {
      p.close();
    }
    if (!config.enabled() || !writer.isAlive()) {
      return;
    }
    try {
      buffer.put(STOP);
      writer.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void drain() {
    List<JsonObject> batch = new ArrayList<>();
    boolean stopping = false;
    while (!stopping) {
      try {
        JsonObject first = buffer.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        // Sleep out the batch window, then take what came: a writer blocked in poll() would be
        // signalled by every record (a futex wake-up per call on the event loop), one asleep is not.
        Thread.sleep(config.flushMs());
        buffer.drainTo(batch);
        stopping = batch.remove(STOP);
        write(batch);
      } catch (InterruptedException e) {
        stopping = true;
      } catch (IOException | RuntimeException e) {
        LOG.error("audit batch of {} records could not be written: {}", batch.size(), e.toString());
        dropped.addAndGet(batch.size());
      }
      batch.clear();
    }
    closeFile();
  }

  /** Appends the batch, rotating between lines when a line would take the file past its limit. */
  private void write(List<JsonObject> batch) throws IOException {
    // the batch's records are written now: their day is today's, whichever millisecond each was made
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    pending.reset(); // what a failed batch left is not written with this one
    for (JsonObject r : batch) {
      line.reset();
      lineWriter.write(r);
      line.write('\n');
      boolean full = size + pending.size() > 0 && size + pending.size() + line.size() > config.maxFileBytes();
      if (file == null || !today.equals(day) || full) {
        flush();
        rotate(today, full && today.equals(day));
      }
      line.writeTo(pending);
    }
    flush();
    written.addAndGet(batch.size());
    if (pending.capacity() > KEPT_BUFFER_BYTES) {
      pending = new Lines(PENDING_BYTES);
    }
  }

  private void flush() throws IOException {
    if (file == null || pending.size() == 0) {
      return;
    }
    ByteBuffer buf = pending.view();
    while (buf.hasRemaining()) {
      file.write(buf);
    }
    file.force(false);
    size += pending.size();
    pending.reset();
  }

  /** The writer's batch of encoded lines, reused batch after batch: written from its own array. */
  private static final class Lines extends java.io.ByteArrayOutputStream {
    Lines(int size) {
      super(size);
    }

    ByteBuffer view() {
      return ByteBuffer.wrap(buf, 0, count);
    }

    int capacity() {
      return buf.length;
    }
  }

  /**
   * Opens the file to append to: on a new day the first of that day that still has room (a
   * restarted gateway continues its files), after a size rotation the next index.
   */
  private void rotate(LocalDate today, boolean next) throws IOException {
    closeFile();
    Files.createDirectories(config.dir());
    index = today.equals(day) && next ? index + 1 : 0;
    day = today;
    while (true) {
      path = config.dir().resolve("audit-" + today + (index == 0 ? "" : "." + index) + ".jsonl");
      long existing = Files.exists(path) ? Files.size(path) : 0;
      if (existing < config.maxFileBytes()) {
        file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        size = existing;
        return;
      }
      index++;
    }
  }

  private void closeFile() {
    if (file != null) {
      try {
        file.force(true);
        file.close();
      } catch (IOException e) {
        LOG.warn("closing audit file {}: {}", path, e.toString());
      }
      file = null;
    }
  }
}
