package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * Incremental text/event-stream parser: feed it response chunks in order, it calls back once per
 * complete event with the event's id (or null) and its joined data lines.
 */
final class SseParser {

  private final BiConsumer<String, String> onEvent;
  private final StringBuilder pending = new StringBuilder();
  private final StringBuilder data = new StringBuilder();
  private String id;

  SseParser(BiConsumer<String, String> onEvent) {
    this.onEvent = onEvent;
  }

  void feed(Buffer chunk) {
    pending.append(chunk.toString(StandardCharsets.UTF_8));
    int start = 0;
    for (int i = 0; i < pending.length(); i++) {
      if (pending.charAt(i) == '\n') {
        int end = i > start && pending.charAt(i - 1) == '\r' ? i - 1 : i;
        line(pending.substring(start, end));
        start = i + 1;
      }
    }
    pending.delete(0, start);
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
