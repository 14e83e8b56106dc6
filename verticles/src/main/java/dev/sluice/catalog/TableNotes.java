package dev.sluice.catalog;

import java.util.Locale;
import java.util.Map;

/**
 * A table's description and its columns' descriptions as an engine keeps them: in COMMENTs
 * (PostgreSQL, MySQL) or in the CREATE TABLE text (SQLite).
 *
 * @param columns lower-case column name → description
 */
public record TableNotes(String table, Map<String, String> columns) {

  public static TableNotes of(String table) {
    return new TableNotes(table, Map.of());
  }

  /** The column's description, or null. */
  public String column(String name) {
    return columns.get(name.toLowerCase(Locale.ROOT));
  }
}
