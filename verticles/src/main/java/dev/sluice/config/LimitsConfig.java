package dev.sluice.config;

/**
 * How much one principal may take; 0 means unlimited. Token buckets: a principal may burst up to
 * the full per-minute (per-hour) budget, which refills continuously.
 *
 * @param queriesPerMinute SQL statements (sql_execution, sql_explain) per minute
 * @param rowsPerHour rows returned per hour; a large result may overdraw it, and the next call
 *     waits until it has refilled
 * @param concurrentQueries statements in flight at once
 */
public record LimitsConfig(int queriesPerMinute, long rowsPerHour, int concurrentQueries) {

  public static final LimitsConfig UNLIMITED = new LimitsConfig(0, 0, 0);

  public boolean unlimited() {
    return queriesPerMinute == 0 && rowsPerHour == 0 && concurrentQueries == 0;
  }
}
