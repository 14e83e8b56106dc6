package dev.sluice.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The whole validated configuration. Built by {@link ConfigLoader}; immutable.
 *
 * @param server the HTTP front
 * @param stateDir where the demo database, snapshots and other state live
 * @param connections configured databases, in config order; never empty (the demo is used when
 *     the config names none)
 * @param demo true when {@code connections} is the generated SQLite demo
 */
public record SluiceConfig(
    ServerConfig server, Path stateDir, List<ConnectionConfig> connections, boolean demo) {

  public Optional<ConnectionConfig> connection(String id) {
    return connections.stream().filter(c -> c.id().equals(id)).findFirst();
  }

  public SluiceConfig withServer(ServerConfig s) {
    return new SluiceConfig(s, stateDir, connections, demo);
  }

  public SluiceConfig withConnections(List<ConnectionConfig> cs) {
    return new SluiceConfig(server, stateDir, cs, demo);
  }
}
