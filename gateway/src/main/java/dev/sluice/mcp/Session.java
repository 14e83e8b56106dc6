package dev.sluice.mcp;

import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One MCP session's state, owned by a single session shard (one event loop; not thread-safe).
 */
final class Session {

  /** Ended POST streams kept for Last-Event-ID replay. */
  private static final int KEPT_ENDED_STREAMS = 16;

  static final String GET_STREAM_KEY = "g";

  final String id;
  final String protocolVersion;
  final JsonObject clientInfo;
  final JsonObject clientCapabilities;
  final int replayEvents;
  boolean initialized;
  String logLevel = "warning";
  /** Whether the client chose a log level (logging/setLevel): its calls then stream their log messages. */
  boolean logLevelChosen;
  /** Who initialized this session; every later request must present a token of the same principal. */
  String principal = dev.sluice.config.PrincipalConfig.DEFAULT;

  /** RFC 5424 severities, least severe first (logging/setLevel's levels). */
  static final java.util.List<String> LOG_LEVELS =
      java.util.List.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  /** Whether a notifications/message at {@code level} passes the level this session asked for. */
  boolean logs(String level) {
    return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(logLevel);
  }
  final long openedAt = System.currentTimeMillis();
  long lastSeen = openedAt;
  /** tools/call requests this session made (the operator's console shows it). */
  int callCount;
  final Map<String, ToolCall> inFlight = new HashMap<>();
  /** Executor queryId → the call that started it (query_cancel, progress routing). */
  final Map<String, RunningCall> queries = new HashMap<>();
  /** Requests this server sent to the client, by JSON-RPC id, awaiting the client's response. */
  final Map<String, io.vertx.core.Promise<JsonObject>> pendingClientRequests = new HashMap<>();
  long clientRequestSeq;
  private final EventStream getStream;
  private final LinkedHashMap<String, EventStream> postStreams = new LinkedHashMap<>();
  private long postStreamSeq;

  Session(String id, String protocolVersion, JsonObject clientInfo, JsonObject clientCapabilities,
      int replayEvents) {
    this.id = id;
    this.protocolVersion = protocolVersion;
    this.clientInfo = clientInfo;
    this.clientCapabilities = clientCapabilities;
    this.replayEvents = replayEvents;
    this.getStream = new EventStream(GET_STREAM_KEY, replayEvents);
  }

  EventStream getStream() {
    return getStream;
  }

  EventStream newPostStream() {
    EventStream s = new EventStream("p" + (++postStreamSeq), replayEvents);
    keep(s);
    return s;
  }

  /**
   * A POST stream that may never open ({@link EventStream#held}): the session keeps it for
   * Last-Event-ID only once it opens ({@link #keep}).
   */
  EventStream heldPostStream() {
    return EventStream.held("p" + (++postStreamSeq), replayEvents);
  }

  /** Keeps {@code s} for resumption, forgetting the oldest completed streams beyond the kept few. */
  void keep(EventStream s) {
    postStreams.put(s.key(), s);
    // running ones are never dropped: bounded by KEPT_ENDED_STREAMS plus the calls running right now
    int excess = postStreams.size() - KEPT_ENDED_STREAMS;
    java.util.Iterator<EventStream> it = postStreams.values().iterator();
    while (excess > 0 && it.hasNext()) {
      EventStream old = it.next();
      if (old.ended() && !old.attached()) {
        it.remove();
        excess--;
      }
    }
  }

  EventStream stream(String key) {
    return GET_STREAM_KEY.equals(key) ? getStream : postStreams.get(key);
  }

  /** The stream attached to the given transport stream id, if any. */
  EventStream streamByTarget(String targetStreamId) {
    if (targetStreamId == null) {
      return null;
    }
    if (targetStreamId.equals(getStream.targetStreamId())) {
      return getStream;
    }
    for (EventStream s : postStreams.values()) {
      if (targetStreamId.equals(s.targetStreamId())) {
        return s;
      }
    }
    return null;
  }

  Iterable<EventStream> allStreams() {
    java.util.List<EventStream> all = new java.util.ArrayList<>(postStreams.values());
    all.add(getStream);
    return all;
  }

  /** Completes the pending server→client request a client response answers; false if none. */
  boolean answer(JsonObject response) {
    io.vertx.core.Promise<JsonObject> p = pendingClientRequests.remove(String.valueOf(response.getValue("id")));
    if (p == null) {
      return false;
    }
    if (response.containsKey("error")) {
      JsonObject err = response.getJsonObject("error", new JsonObject());
      p.tryFail(new dev.sluice.sql.SqlError(dev.sluice.sql.ErrorType.INVALID_ARGUMENT,
          "client answered with error " + err.getValue("code") + ": " + err.getString("message")));
    } else {
      p.tryComplete(response.getJsonObject("result", new JsonObject()));
    }
    return true;
  }

  JsonObject clientSummary() {
    return clientInfo == null ? new JsonObject() : clientInfo;
  }
}
