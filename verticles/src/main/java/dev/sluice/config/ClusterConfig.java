package dev.sluice.config;

import java.util.List;

/**
 * How a node joins a cluster: Hazelcast TCP-IP members only, on one interface, under a cluster
 * name. There is no multicast or auto-detection mode to choose: members are always listed.
 *
 * <p>Cluster traffic stays on loopback unless {@code allow_non_loopback} says otherwise, and in
 * loopback-only mode ({@link #LOOPBACK_ONLY_PROPERTY}, which the test suites set) not even that
 * opens it: a test can never send cluster traffic off the machine.
 *
 * @param enabled whether the node joins a cluster at all ({@code --cluster} turns it on)
 * @param name nodes with another name never join
 * @param host the interface Hazelcast and the event bus bind
 * @param port this member's Hazelcast port
 * @param members {@code host:port} of every member, this one included
 * @param allowNonLoopback true to let {@code host} and {@code members} leave 127.0.0.0/8 and ::1
 * @param nodeId this node's id in session ids and bus addresses; null derives a stable one from
 *     {@code host:port}, so a node that restarts at the same address keeps its id
 */
public record ClusterConfig(boolean enabled, String name, String host, int port, List<String> members,
    boolean allowNonLoopback, String nodeId) {

  /** System property (or env {@code SLUICE_LOOPBACK_ONLY}) that forbids non-loopback cluster traffic. */
  public static final String LOOPBACK_ONLY_PROPERTY = "sluice.loopback_only";
  public static final int DEFAULT_PORT = 5701;

  public ClusterConfig {
    if (name == null || !name.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw new ConfigException("cluster.name", "must be 1-64 letters, digits, '_', '.' or '-', got \"" + name + "\"");
    }
    ConfigNode.checkRange("cluster.port", port, 1, 65_535);
    if (nodeId != null && !nodeId.matches("[A-Za-z0-9_-]{1,32}")) {
      throw new ConfigException("cluster.node_id", "must be 1-32 letters, digits, '_' or '-', got \"" + nodeId + "\"");
    }
    members = List.copyOf(members);
    if (members.isEmpty()) {
      throw new ConfigException("cluster.members", "list every member as host:port (this node included); "
          + "there is no multicast discovery");
    }
    boolean loopbackOnly = loopbackOnlyMode();
    if (allowNonLoopback && loopbackOnly) {
      throw new ConfigException("cluster.allow_non_loopback", "refused: " + LOOPBACK_ONLY_PROPERTY
          + " is set (test mode), so cluster traffic must stay on 127.0.0.0/8 or ::1");
    }
    if (!allowNonLoopback && !ConfigLoader.isLoopback(host)) {
      throw new ConfigException("cluster.host", "\"" + host + "\" is not a loopback address; cluster traffic "
          + "stays on 127.0.0.0/8 or ::1 unless cluster.allow_non_loopback is true");
    }
    for (int i = 0; i < members.size(); i++) {
      String m = members.get(i);
      int colon = m.lastIndexOf(':');
      String key = "cluster.members[" + i + "]";
      if (colon <= 0 || !m.substring(colon + 1).matches("\\d{1,5}")) {
        throw new ConfigException(key, "must be host:port, got \"" + m + "\"");
      }
      ConfigNode.checkRange(key, Long.parseLong(m.substring(colon + 1)), 1, 65_535);
      if (!allowNonLoopback && !ConfigLoader.isLoopback(m.substring(0, colon))) {
        throw new ConfigException(key, "\"" + m + "\" is not on loopback; members stay on 127.0.0.0/8 or ::1 "
            + "unless cluster.allow_non_loopback is true");
      }
    }
  }

  /** Not clustered; the other fields are the defaults {@code --cluster} starts from. */
  public static ClusterConfig disabled() {
    return new ClusterConfig(false, "sluice", "127.0.0.1", DEFAULT_PORT, List.of("127.0.0.1:" + DEFAULT_PORT), false,
        null);
  }

  public ClusterConfig with(boolean enabled, String name, String host, Integer port, List<String> members,
      String nodeId) {
    return new ClusterConfig(enabled || this.enabled, name != null ? name : this.name, host != null ? host : this.host,
        port != null ? port : this.port, members != null ? members : this.members, allowNonLoopback,
        nodeId != null ? nodeId : this.nodeId);
  }

  /** The configured id, or 8 hex digits of SHA-256("host:port"): stable across restarts at one address. */
  public String resolvedNodeId() {
    if (nodeId != null) {
      return nodeId;
    }
    return Tokens.sha256Hex(host + ":" + port).substring(0, 8);
  }

  static boolean loopbackOnlyMode() {
    String v = System.getProperty(LOOPBACK_ONLY_PROPERTY, System.getenv("SLUICE_LOOPBACK_ONLY"));
    return v != null && ConfigNode.parseBoolean(LOOPBACK_ONLY_PROPERTY, v);
  }
}
