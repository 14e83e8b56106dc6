package dev.sluice.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The generated dataset: for each table of {@link DemoSchema#TABLES}, its rows in primary key
 * order. A row is an {@code Object[]} aligned with {@link DemoTable#columns()}, holding the Java
 * type of each column's {@link DemoType} (null only in nullable columns).
 */
public final class DemoData {

  private final Map<String, List<Object[]>> rows;

  DemoData(Map<String, List<Object[]>> rows) {
    this.rows = new LinkedHashMap<>(rows);
  }

  /** Rows of one table in primary key order; do not modify them. */
  public List<Object[]> rows(DemoTable table) {
    List<Object[]> r = rows.get(table.name());
    if (r == null) {
      throw new IllegalArgumentException("no rows for " + table.name());
    }
    return r;
  }

  /** Row count per table, in {@link DemoSchema#TABLES} order. */
  public Map<String, Integer> rowCounts() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (DemoTable t : DemoSchema.TABLES) {
      counts.put(t.name(), rows(t).size());
    }
    return counts;
  }

  public int totalRows() {
    return rowCounts().values().stream().mapToInt(Integer::intValue).sum();
  }
}
