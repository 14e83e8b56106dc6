package dev.sluice.demo;

import java.util.List;

/**
 * One demo table: its first column is the integer primary key {@code id}.
 *
 * @param name table name
 * @param comment description for the catalog
 * @param columns columns in insert order, {@code id} first
 * @param indexes columns that get a secondary (non-unique) index
 */
public record DemoTable(String name, String comment, List<DemoColumn> columns, List<String> indexes) {

  public DemoTable {
    columns = List.copyOf(columns);
    indexes = List.copyOf(indexes);
  }

  /** Position of a column, or -1. */
  public int indexOf(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    return -1;
  }
}
