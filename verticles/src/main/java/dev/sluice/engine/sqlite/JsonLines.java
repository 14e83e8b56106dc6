package dev.sluice.engine.sqlite;

import java.io.IOException;
import java.io.InputStream;

/**
 * Splits the byte stream between the gateway and a worker process into its lines, without
 * decoding characters or making a String per line: each line is handed on as bytes, for the JSON
 * parser to read straight from them. Both ends of the pipe read this way.
 */
final class JsonLines {

  /** Takes one line (without its newline); the array is reused once this returns. */
  interface Sink {
    void line(byte[] bytes, int length) throws IOException;
  }

  /** Runs when the lines read so far are all handed on. */
  interface Drained {
    void run() throws IOException;
  }

  /** A line buffer that grew past this for one large answer is not kept for the next. */
  private static final int KEPT_LINE_BYTES = 1 << 20;

  private JsonLines() {}

  /**
   * Reads {@code in} to its end, line by line. Pass the unbuffered stream where there is one: a
   * {@code BufferedInputStream} asks the kernel how much is available after every short read, a
   * system call per line for nothing.
   */
  static void read(InputStream in, Sink sink) throws IOException {
    read(in, sink, () -> { });
  }

  /** As above; {@code drained} runs after the lines of each read, before the next read may block. */
  static void read(InputStream in, Sink sink, Drained drained) throws IOException {
    byte[] chunk = new byte[8_192];
    byte[] line = new byte[1_024];
    int length = 0;
    for (int n; (n = in.read(chunk)) >= 0; ) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (chunk[i] != '\n') {
          continue;
        }
        line = append(line, length, chunk, start, i - start);
        length += i - start;
        sink.line(line, length);
        length = 0;
        start = i + 1;
      }
      line = append(line, length, chunk, start, n - start);
      length += n - start;
      drained.run();
      if (length == 0 && line.length > KEPT_LINE_BYTES) {
        line = new byte[1_024];
      }
    }
  }

  private static byte[] append(byte[] line, int length, byte[] from, int offset, int count) {
    if (length + count > line.length) {
      line = java.util.Arrays.copyOf(line, Math.max(line.length * 2, length + count));
    }
    System.arraycopy(from, offset, line, length, count);
    return line;
  }
}
