package dev.sluice.mcp;

import dev.sluice.bus.ByReferenceJson;
import dev.sluice.bus.LocalReceivers;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One SSE stream of a session: a POST's response stream or the standalone GET stream. Events get
 * ids {@code <key>_<seq>} and are kept in a bounded buffer so a client that reconnects with
 * Last-Event-ID gets what it missed on that stream (and only that stream). Owned by one session
 * shard; not thread-safe.
 */
public final class EventStream {

  private final String key;
  private final int capacity;
  private final Deque<Object[]> buffer = new ArrayDeque<>();
  private long seq;
  private String targetAddress;
  private String targetStreamId;
  private boolean ended;
  /** Made for a POST whose stream may never open ({@link #openLate}): records, delivers nothing. */
  private boolean held;

  EventStream(String key, int capacity) {
    this.key = key;
    this.capacity = Math.max(1, capacity);
  }

  String key() {
    return key;
  }

  boolean attached() {
    return targetAddress != null;
  }

  boolean ended() {
    return ended;
  }

  String targetStreamId() {
    return targetStreamId;
  }

  void attach(String address, String streamId) {
    this.targetAddress = address;
    this.targetStreamId = streamId;
  }

  void detach() {
    targetAddress = null;
    targetStreamId = null;
  }

  /** A stream that records what is emitted and delivers nothing until {@link #openLate}. */
  static EventStream held(String key, int capacity) {
    EventStream s = new EventStream(key, capacity);
    s.held = true;
    return s;
  }

  /** True while a held stream was neither opened nor dropped. */
  boolean held() {
    return held;
  }

  /**
   * Opens a held stream on the client's HTTP stream: the priming event first when {@code
   * retryMs} is not negative (its id precedes every recorded event, so a client resuming from it
   * misses none), then what was recorded.
   */
  void openLate(Vertx vertx, String address, String streamId, long retryMs) {
    held = false;
    attach(address, streamId);
    if (retryMs >= 0) {
      deliver(vertx, new JsonObject().put("streamId", targetStreamId).put("eventId", key + "_0")
          .put("retryMs", retryMs));
    }
    replay(vertx, 0);
  }

  /** A held stream that will not open: the answer went back as JSON. */
  void drop() {
    held = false;
    ended = true;
    buffer.clear();
  }

  /** Records the event and delivers it if a client is attached. */
  void emit(Vertx vertx, JsonObject message) {
    long s = ++seq;
    buffer.addLast(new Object[] {s, message});
    if (buffer.size() > capacity) {
      buffer.removeFirst();
    }
    if (targetAddress != null) {
      deliver(vertx, new JsonObject().put("streamId", targetStreamId).put("eventId", key + "_" + s)
          .put("message", message));
    }
  }

  /**
   * SSE polling (2025-11-25, SEP-1699): an event with an id and no data, so the client has an id
   * to resume from even before the first real message, plus the reconnect delay it should use.
   */
  void prime(Vertx vertx, long retryMs) {
    String id = key + "_" + (++seq);
    if (targetAddress != null) {
      deliver(vertx, new JsonObject().put("streamId", targetStreamId).put("eventId", id)
          .put("retryMs", retryMs));
    }
  }

  /** Closes the client's connection but keeps the stream open for a Last-Event-ID resume. */
  void disconnect(Vertx vertx) {
    if (targetAddress != null) {
      deliver(vertx, new JsonObject().put("streamId", targetStreamId).put("end", true));
      detach();
    }
  }

  /** Marks the stream complete; tells an attached client to close. */
  void end(Vertx vertx) {
    ended = true;
    if (targetAddress != null) {
      deliver(vertx, new JsonObject().put("streamId", targetStreamId).put("end", true));
      detach();
    }
  }

  /**
   * Sends every buffered event after {@code afterSeq} to the (newly) attached client; ends it too
   * if the stream already completed.
   */
  void replay(Vertx vertx, long afterSeq) {
    for (Object[] e : buffer) {
      long s = (Long) e[0];
      if (s > afterSeq) {
        deliver(vertx, new JsonObject().put("streamId", targetStreamId)
            .put("eventId", key + "_" + s).put("message", e[1]));
      }
    }
    if (ended) {
      end(vertx);
    }
  }

  /**
   * To the attached client's HTTP verticle: handed over if it is on this node ({@link #HTTP}),
   * else over the bus; by reference either way, since an event is never changed once sent.
   */
  private void deliver(Vertx vertx, JsonObject event) {
    if (!HTTP.deliver(vertx, targetAddress, event)) {
      vertx.eventBus().send(targetAddress, event, ByReferenceJson.options());
    }
  }

  /**
   * This node's HTTP verticles, by their stream address: a POST's events (priming, progress, the
   * result, the end) were five event-bus messages per streamed call.
   */
  public static final LocalReceivers HTTP = new LocalReceivers();

  /** Parses {@code <key>_<seq>}; null when malformed. */
  static Object[] parseEventId(String eventId) {
    if (eventId == null) {
      return null;
    }
    int i = eventId.lastIndexOf('_');
    if (i <= 0) {
      return null;
    }
    try {
      return new Object[] {eventId.substring(0, i), Long.parseLong(eventId.substring(i + 1))};
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
