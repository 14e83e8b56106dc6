package dev.sluice.config;

import java.nio.file.Path;

/**
 * Where shared state lives: catalog snapshots, wiki pages and memory-ingest runs.
 *
 * @param dir the local state directory (the demo database and the audit files stay here in every mode)
 * @param store {@code directory} (one node) or {@code postgres} (every node of a cluster sees the same state)
 * @param postgresUrl the {@code postgresql://} URL when {@code store} is postgres
 * @param postgresTable the table the postgres store keeps its entries in
 * @param leaseMs how long a node's claim on an ingest run lasts without renewal: after a node dies,
 *     another picks its runs up within about this long
 */
public record StateConfig(Path dir, String store, String postgresUrl, String postgresTable, long leaseMs) {

  public static final long DEFAULT_LEASE_MS = 15_000;
  public static final String DEFAULT_TABLE = "sluice_state";

  public StateConfig {
    if (!store.equals("directory") && !store.equals("postgres")) {
      throw new ConfigException("state.store", "must be directory or postgres, got \"" + store + "\"");
    }
    if (store.equals("postgres") && (postgresUrl == null || postgresUrl.isBlank())) {
      throw new ConfigException("state.postgres_url", "is required when state.store is postgres "
          + "(postgresql://user@host:5432/db; use ${ENV} for a password)");
    }
    if (!postgresTable.matches("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?")) {
      throw new ConfigException("state.postgres_table", "must be a plain [schema.]table name, got \""
          + postgresTable + "\"");
    }
    ConfigNode.checkRange("state.lease_ms", leaseMs, 1_000, 3_600_000);
  }

  public static StateConfig directory(Path dir) {
    return new StateConfig(dir, "directory", null, DEFAULT_TABLE, DEFAULT_LEASE_MS);
  }

  public boolean shared() {
    return store.equals("postgres");
  }

  @Override
  public String toString() {
    // the URL may carry a password
    return "StateConfig[dir=" + dir + ", store=" + store + ", table=" + postgresTable + ", leaseMs=" + leaseMs + "]";
  }
}
