package dev.sluice.config;

/**
 * How the catalog scan runs. Every scan query still goes through the connection's executor, so
 * its deadline, pool and read-only guard apply unchanged.
 *
 * @param scanOnStart scan every connection in the background when the gateway starts
 * @param scanIntervalMs rescan every connection this often; 0 means only on start and on demand
 * @param sampleRows rows read per table when profiling column values
 * @param valuesPerColumn most frequent distinct values kept per profiled column
 * @param concurrency scan queries in flight per connection (leaves the rest of the pool to agents)
 */
public record CatalogConfig(boolean scanOnStart, long scanIntervalMs, int sampleRows, int valuesPerColumn,
    int concurrency) {

  public static final int DEFAULT_SAMPLE_ROWS = 10_000;
  public static final int DEFAULT_VALUES_PER_COLUMN = 100;
  public static final int DEFAULT_CONCURRENCY = 2;

  public static CatalogConfig defaults() {
    return new CatalogConfig(true, 0, DEFAULT_SAMPLE_ROWS, DEFAULT_VALUES_PER_COLUMN, DEFAULT_CONCURRENCY);
  }

  public CatalogConfig withScanOnStart(boolean on) {
    return new CatalogConfig(on, scanIntervalMs, sampleRows, valuesPerColumn, concurrency);
  }
}
