package dev.sluice.mcp;

/**
 * Event-bus contract between transports (HTTP verticles, stdio) and the session shards that own
 * MCP sessions. Bodies are JsonObject so the contract works on a clustered bus.
 *
 * <p>A session id is {@code <nodeId>.<shard>.<random>}; the transport routes by its prefix to
 * {@link #shard(String, int)}, so no per-session consumer is ever registered.
 *
 * <h2>Transport → shard (request/reply)</h2>
 *
 * <ul>
 *   <li>{@code {op:"post", sessionId?, messages:[...], batch, protocolVersion?, sse, target,
 *       streamId}} → {@code {status:202}} | {@code {status:200, body, sessionId?, protocolVersion?}}
 *       (JSON mode, sent when all requests are answered) | {@code {status:200, sse:true}} (SSE
 *       mode: sent at once, events follow on {@code target}) | {@code {status:4xx, body?,
 *       error}}.
 *   <li>{@code {op:"get", sessionId, target, streamId, lastEventId?}} → {@code {status:200}} |
 *       {@code {status:404|409, error}}; events follow on {@code target}.
 *   <li>{@code {op:"delete", sessionId}} → {@code {status:200|404}}.
 * </ul>
 *
 * <h2>Transport → shard (send)</h2>
 *
 * {@code {op:"detach", sessionId, streamId}} when the client's HTTP connection closed; later events
 * of that stream are kept for Last-Event-ID replay.
 *
 * <h2>Shard → transport target (send)</h2>
 *
 * {@code {streamId, eventId, message}} one SSE event; {@code {streamId, end:true}} the stream is
 * complete (close the HTTP response).
 */
public final class McpBus {

  /** Local publish of a node id (String) that left the cluster: relayed streams of its sessions end. */
  public static final String NODE_LEFT = "sluice.cluster.node-left";
  /** Local publish of a node id that joined (a restarted node keeps its id): its sessions route again. */
  public static final String NODE_JOINED = "sluice.cluster.node-joined";

  private McpBus() {}

  public static String shard(String nodeId, int shard) {
    if (shard < 0 || shard >= CACHED_SHARDS) {
      return "sluice.mcp.session." + nodeId + "." + shard;
    }
    // every POST names its shard: the address is made once per node and shard, not per request.
    // Node ids come from clients' session ids, so only so many nodes are kept.
    String[] byShard = ADDRESSES.get(nodeId);
    if (byShard == null) {
      if (ADDRESSES.size() >= CACHED_NODES) {
        return "sluice.mcp.session." + nodeId + "." + shard;
      }
      byShard = ADDRESSES.computeIfAbsent(nodeId, k -> new String[CACHED_SHARDS]);
    }
    String address = byShard[shard];
    if (address == null) {
      address = "sluice.mcp.session." + nodeId + "." + shard;
      byShard[shard] = address; // a racing writer stores an equal string
    }
    return address;
  }

  private static final int CACHED_SHARDS = 64;
  private static final int CACHED_NODES = 64;
  private static final java.util.concurrent.ConcurrentHashMap<String, String[]> ADDRESSES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Executor progress for queries started by calls of this shard's sessions. */
  public static String shardProgress(String nodeId, int shard) {
    return shard(nodeId, shard) + ".progress";
  }

  /**
   * Server-initiated log messages for a session of this shard, sent by work that outlives the call
   * that started it (memory_ingest runs): {@code {sessionId, level, logger, data}} becomes a
   * notifications/message on the session's GET stream if its log level lets it through.
   */
  public static String shardNotify(String nodeId, int shard) {
    return shard(nodeId, shard) + ".notify";
  }

  /** The notify address of the shard owning {@code sessionId}, or null if it is not one of ours. */
  public static String notifyAddressOf(String sessionId) {
    Route r = route(sessionId);
    return r == null ? null : shardNotify(r.nodeId(), r.shard());
  }

  /**
   * Splits a session id into node and shard, or returns null when it is not one of ours (such ids
   * are answered 404).
   */
  public static Route route(String sessionId) {
    if (sessionId == null) {
      return null;
    }
    int a = sessionId.indexOf('.');
    int b = a < 0 ? -1 : sessionId.indexOf('.', a + 1);
    if (a <= 0 || b <= a + 1 || b == sessionId.length() - 1) {
      return null;
    }
    try {
      return new Route(sessionId.substring(0, a), Integer.parseInt(sessionId, a + 1, b, 10));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  public record Route(String nodeId, int shard) {
    public String address() {
      return McpBus.shard(nodeId, shard);
    }
  }
}
