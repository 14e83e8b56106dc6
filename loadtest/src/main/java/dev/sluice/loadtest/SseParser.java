package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;

/**
 * Incremental text/event-stream parser: feed it response chunks in order, it calls back once per
 * complete event with the event's id (or null) and its data lines joined, as bytes. Lines are
 * split on the bytes and only an id is decoded, so a call's events cost the client no String per
 * line: the load generator shares the machine with the gateway it measures.
 */
final class SseParser {

  /** Takes one event; {@code data} may be a view of the chunk, valid until this returns. */
  interface Events {
    void event(String id, Buffer data);
  }

  private final Events onEvent;
  /** The start of a line that the last chunk did not finish (empty between lines). */
  private Buffer carried = Buffer.buffer();
  /** The event's data: a view of its one data line, or the lines joined once there is a second. */
  private Buffer data;
  private boolean joined;
  private String id;

  SseParser(Events onEvent) {
    this.onEvent = onEvent;
  }

  void feed(Buffer chunk) {
    int n = chunk.length();
    int start = 0;
    if (carried.length() > 0) {
      int nl = newline(chunk, 0, n);
      if (nl < 0) {
        carried.appendBuffer(chunk);
        return;
      }
      carried.appendBuffer(chunk, 0, nl);
      Buffer whole = carried;
      carried = Buffer.buffer();
      line(whole, 0, whole.length());
      start = nl + 1;
    }
    for (int nl; start < n && (nl = newline(chunk, start, n)) >= 0; start = nl + 1) {
      line(chunk, start, nl);
    }
    if (start < n) {
      carried.appendBuffer(chunk, start, n - start);
    }
    if (data != null && !joined) {
      // the event goes on in the next chunk: its data stops being a view of this one
      data = Buffer.buffer(data.length() * 2).appendBuffer(data);
      joined = true;
    }
  }

  private static int newline(Buffer b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b.getByte(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void line(Buffer b, int start, int end) {
    if (end > start && b.getByte(end - 1) == '\r') {
      end--;
    }
    if (end == start) {
      if (data != null) {
        onEvent.event(id, data);
      }
      id = null;
      data = null;
      joined = false;
    } else if (startsWith(b, start, end, "data:")) {
      int from = start + 5;
      if (from < end && b.getByte(from) == ' ') {
        from++;
      }
      if (data == null) {
        data = b.slice(from, end);
      } else {
        if (!joined) {
          data = Buffer.buffer(data.length() * 2).appendBuffer(data);
          joined = true;
        }
        data.appendByte((byte) '\n').appendBuffer(b, from, end - from);
      }
    } else if (startsWith(b, start, end, "id:")) {
      id = b.getString(start + 3, end, "UTF-8").trim();
    }
  }

  private static boolean startsWith(Buffer b, int start, int end, String field) {
    if (end - start < field.length()) {
      return false;
    }
    for (int i = 0; i < field.length(); i++) {
      if (b.getByte(start + i) != field.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
