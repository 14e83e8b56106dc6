package dev.sluice.gateway;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.sluice.config.ClusterConfig;

/**
 * The Hazelcast member configuration of a node: explicit TCP-IP members on one interface, every
 * other way of finding members (multicast, auto-detection, cloud discovery) off, no phone-home.
 */
public final class HazelcastSetup {

  /** A dead member's cluster locks are freed when its CP session expires (Hazelcast's default is 5 minutes). */
  static final int CP_SESSION_TTL_SECONDS = 10;

  private HazelcastSetup() {}

  /** The member attribute that carries a node's Sluice node id, so the others can tell which node left. */
  static final String NODE_ID_ATTRIBUTE = "sluice.nodeId";

  public static Config config(ClusterConfig cluster) {
    Config hz = new Config();
    hz.setClusterName(cluster.name());
    hz.getMemberAttributeConfig().setAttribute(NODE_ID_ATTRIBUTE, cluster.resolvedNodeId());
    hz.setProperty("hazelcast.phone.home.enabled", "false");
    hz.setProperty("hazelcast.logging.type", "slf4j");
    // a member that stops answering is declared dead after 10 s, not the default 60 s
    hz.setProperty("hazelcast.max.no.heartbeat.seconds", "10");
    hz.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    hz.getCPSubsystemConfig().setSessionHeartbeatIntervalSeconds(1).setSessionTimeToLiveSeconds(CP_SESSION_TTL_SECONDS);
    // rate-limit windows expire on their own once no window can need them
    hz.getMapConfig(dev.sluice.access.SharedWindows.MAP).setTimeToLiveSeconds(dev.sluice.access.SharedWindows.TTL_SECONDS);
    NetworkConfig net = hz.getNetworkConfig();
    net.setPort(cluster.port()).setPortAutoIncrement(false);
    net.getInterfaces().setEnabled(true).addInterface(cluster.host());
    JoinConfig join = net.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
    return hz;
  }
}
