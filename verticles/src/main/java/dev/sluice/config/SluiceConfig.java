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
 * @param catalog how schema snapshots are scanned
 * @param ingest how memory_ingest runs are queued and executed
 * @param audit where and how the audit trail is written
 * @param principals who may call, with their tokens and connections; empty means the single
 *     default principal (loopback without a token, or whoever holds server.token)
 * @param limits the rate limits of every principal that names none of its own
 * @param approvedDir where approved query definitions ({@code *.sql}) live
 * @param state which store holds snapshots, wiki pages and ingest runs ({@code stateDir} is its directory)
 * @param cluster whether and how this node joins a cluster
 */
public record SluiceConfig(
    ServerConfig server, Path stateDir, List<ConnectionConfig> connections, boolean demo, CatalogConfig catalog,
    IngestConfig ingest, AuditConfig audit, List<PrincipalConfig> principals, LimitsConfig limits,
    Path approvedDir, StateConfig state, ClusterConfig cluster) {

  public SluiceConfig {
    approvedDir = approvedDir == null ? stateDir.resolve("approved") : approvedDir;
    limits = limits == null ? LimitsConfig.UNLIMITED : limits;
    principals = principals == null ? List.of() : List.copyOf(principals);
    catalog = catalog == null ? CatalogConfig.defaults() : catalog;
    ingest = ingest == null ? IngestConfig.defaults() : ingest;
    audit = audit == null ? AuditConfig.defaults(stateDir) : audit;
    state = state == null ? StateConfig.directory(stateDir) : state;
    cluster = cluster == null ? ClusterConfig.disabled() : cluster;
  }

  /** A configuration with the default catalog, ingest and audit settings. */
  public SluiceConfig(ServerConfig server, Path stateDir, List<ConnectionConfig> connections, boolean demo) {
    this(server, stateDir, connections, demo, CatalogConfig.defaults(), IngestConfig.defaults(), null, List.of(), null, null, null, null);
  }

  public Optional<ConnectionConfig> connection(String id) {
    return connections.stream().filter(c -> c.id().equals(id)).findFirst();
  }

  public SluiceConfig withServer(ServerConfig s) {
    return new SluiceConfig(s, stateDir, connections, demo, catalog, ingest, audit, principals, limits, approvedDir, state, cluster);
  }

  public SluiceConfig withConnections(List<ConnectionConfig> cs) {
    return new SluiceConfig(server, stateDir, cs, demo, catalog, ingest, audit, principals, limits, approvedDir, state, cluster);
  }

  public SluiceConfig withPrincipals(List<PrincipalConfig> ps) {
    return new SluiceConfig(server, stateDir, connections, demo, catalog, ingest, audit, ps, limits, approvedDir, state, cluster);
  }

  public SluiceConfig withLimits(LimitsConfig l) {
    return new SluiceConfig(server, stateDir, connections, demo, catalog, ingest, audit, principals, l, approvedDir, state, cluster);
  }

  public SluiceConfig withApprovedDir(Path dir) {
    return new SluiceConfig(server, stateDir, connections, demo, catalog, ingest, audit, principals, limits, dir, state, cluster);
  }

  public SluiceConfig withState(StateConfig st) {
    return new SluiceConfig(server, stateDir, connections, demo, catalog, ingest, audit, principals, limits, approvedDir,
        st, cluster);
  }

  public SluiceConfig withCluster(ClusterConfig c) {
    return new SluiceConfig(server, stateDir, connections, demo, catalog, ingest, audit, principals, limits, approvedDir,
        state, c);
  }

  public SluiceConfig withCatalog(CatalogConfig c) {
    return new SluiceConfig(server, stateDir, connections, demo, c, ingest, audit, principals, limits, approvedDir, state, cluster);
  }
}
