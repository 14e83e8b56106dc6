package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import java.util.function.BiConsumer;

/**
 * Incremental text/event-stream parser: feed it response chunks in order, it calls back once per
 * complete event with the event's id (or null) and its joined data lines.
 */
final class SseParser {

  private final BiConsumer<String, String> onEvent;
  /** Bytes not yet ending in a newline; lines are decoded whole, so a chunk may split a character. */
  private Buffer pending = Buffer.buffer();
  /** Where the newline search resumes: a multi-megabyte event arrives in many chunks. */
  private int scanned;
  private final StringBuilder data = new StringBuilder();
  private String id;

  SseParser(BiConsumer<String, String> onEvent) {
    this.onEvent = onEvent;
  }

  void feed(Buffer chunk) {
    pending.appendBuffer(chunk);
    int start = 0;
    int n = pending.length();
    for (int i = scanned; i < n; i++) {
      if (pending.getByte(i) == '\n') {
        int end = i > start && pending.getByte(i - 1) == '\r' ? i - 1 : i;
        line(pending.getString(start, end, "UTF-8"));
        start = i + 1;
      }
    }
    if (start > 0) {
      pending = pending.getBuffer(start, n);
    }
    scanned = pending.length();
  }

  private void line(String line) {
    if (line.isEmpty()) {
      if (data.length() > 0) {
        onEvent.accept(id, data.toString());
      }
      id = null;
      data.setLength(0);
    } else if (line.startsWith("id:")) {
      id = line.substring(3).trim();
    } else if (line.startsWith("data:")) {
      if (data.length() > 0) {
        data.append('\n');
      }
      data.append(line.substring(5).stripLeading());
    }
  }
}
