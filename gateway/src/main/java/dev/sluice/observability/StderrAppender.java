package dev.sluice.observability;

import ch.qos.logback.core.OutputStreamAppender;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import net.logstash.logback.encoder.StreamingEncoder;

/**
 * Standard error, written in batches. Logback's console appender goes through {@code System.err},
 * a PrintStream that flushes on every write: one system call per log line, two per tool call
 * ({@code tool.start}, {@code tool.end}). Behind the disruptor appender of logback.xml, which
 * flushes its delegates at the end of each batch it drains, this appender with {@code
 * immediateFlush} off writes a batch of lines with one call, and a line never waits longer than its
 * batch. The JSON encoder writes each line straight into that buffer: its {@code byte[]} form
 * copied every line into a new array first (two per tool call).
 */
public final class StderrAppender<E> extends OutputStreamAppender<E> {

  @Override
  public void start() {
    setOutputStream(new FilterOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.err),
        64 * 1024)) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      /** Standard error outlives the appender: stopping it flushes, and fd 2 stays open. */
      @Override
      public void close() throws IOException {
        flush();
      }
    });
    super.start();
  }

  @Override
  protected void writeOut(E event) throws IOException {
    if (!(encoder instanceof StreamingEncoder<?>)) {
      super.writeOut(event);
      return;
    }
    @SuppressWarnings("unchecked")
    StreamingEncoder<E> streaming = (StreamingEncoder<E>) encoder;
    streamWriteLock.lock();
    try {
      if (isStarted()) {
        streaming.encode(event, getOutputStream());
        if (isImmediateFlush()) {
          getOutputStream().flush();
        }
      }
    } finally {
      streamWriteLock.unlock();
    }
  }
}
