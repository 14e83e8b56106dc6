package dev.sluice.console;

/**
 * Event-bus contract of the operator's console. Bodies are JsonObject, so every node of a cluster
 * answers the same way as the local one.
 *
 * <ul>
 *   <li>{@link #CENSUS} (publish, cluster-wide) {@code {replyTo}}: every session shard of every node
 *       sends {@code {node, shard, sessions:[...], calls:[...]}} to {@code replyTo}; every node also
 *       sends one {@code {node, stateless:true, sessions:[], calls:[...]}} for its stateless
 *       (2026-07-28) calls, which have no session and so no shard.
 *   <li>{@link #cancel(String, int)} (request) {@code {sessionId, callId, by}} → {@code {cancelled,
 *       reason?}}: the shard owning the session cancels the call the way notifications/cancelled
 *       does (at the engine).
 *   <li>{@link #cancelStateless(String)} (request) {@code {statelessId, by}} → {@code {cancelled,
 *       reason?}}: the node running the stateless call cancels it the way a client closing the
 *       call's stream does (at the engine).
 *   <li>{@link #CHANGED} (publish, cluster-wide) a node id: sessions or calls of that node changed;
 *       open console streams refresh. Each shard sends it at most every {@link #CHANGE_COALESCE_MS}.
 * </ul>
 */
public final class ConsoleBus {

  public static final String CENSUS = "sluice.console.census";
  public static final String CHANGED = "sluice.console.changed";
  /**
   * Local request {@code {}} → {@code {limits:[...]}}: each principal's rate-limit budgets as they
   * stand ({@code RateLimits#snapshot}), answered by the node's composition root.
   */
  public static final String LIMITS = "sluice.console.limits";
  /**
   * Local request {@code {}} → {@code {connections:[...]}}: each connection's executor info
   * (status, serverVersion, flavour, pool {size, inUse, waiting}) and its catalog scan state.
   */
  public static final String CONNECTIONS = "sluice.console.connections";
  /**
   * Local request {@code {connectionId}} → {@code {connectionId, scanning:true}} once a catalog
   * scan was asked for on this node; fails with code 400 for an unknown connection.
   */
  public static final String RESCAN = "sluice.console.rescan";
  /** Changes of one shard within this window are announced once. */
  public static final long CHANGE_COALESCE_MS = 200;

  private ConsoleBus() {}

  public static String cancel(String nodeId, int shard) {
    return "sluice.console.cancel." + nodeId + "." + shard;
  }

  public static String cancelStateless(String nodeId) {
    return "sluice.console.cancel-stateless." + nodeId;
  }

  /** A stateless call's id in the console: its sequence number on the node that runs it, then the node. */
  public static String statelessId(String nodeId, long seq) {
    return seq + "@" + nodeId;
  }

  /** The node of a stateless call's console id, or null when the text is not one. */
  public static String nodeOfStateless(String statelessId) {
    int at = statelessId == null ? -1 : statelessId.indexOf('@');
    return at > 0 && at < statelessId.length() - 1 && statelessId.substring(0, at).chars().allMatch(Character::isDigit)
        ? statelessId.substring(at + 1) : null;
  }
}
