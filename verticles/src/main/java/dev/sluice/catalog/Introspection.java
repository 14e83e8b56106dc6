package dev.sluice.catalog;

import java.util.List;

/**
 * The catalog queries of one dialect. Every statement is a plain SELECT, so it passes the same
 * read-only guard and deadline as an agent's query; results are read positionally.
 */
public interface Introspection {

  /**
   * Rows: catalog, db, table, kind (table|view), comment, estimatedRows, view definition (null for
   * tables); ordered by db, table.
   */
  String tables();

  /**
   * Rows: db, table, column, nativeType, nullable, comment, primaryKey; ordered by db, table,
   * position. {@code only} limits the listing to one table (the fallback when the whole listing
   * fails on one broken object); null lists every table.
   */
  String columns(TableRef only);

  /** Rows: db, table, fromColumn, toCatalog, toDb, toTable, toColumn (may be null), constraint. */
  String foreignKeys();

  /**
   * Rows: value, count, distinct values in the sample. The most frequent values of one column in
   * the first {@code sampleRows} rows of the table.
   */
  default String sample(TableRef table, String column, int sampleRows, int values) {
    return "SELECT v, COUNT(*) AS n, COUNT(*) OVER () AS distinct_values FROM (SELECT " + quote(column)
        + " AS v FROM " + qualified(table) + " LIMIT " + sampleRows + ") s WHERE v IS NOT NULL"
        + " GROUP BY v ORDER BY n DESC, v LIMIT " + values;
  }

  /** A row count for engines whose catalog keeps no estimate; null when the catalog has one. */
  default String rowCount(TableRef table) {
    return null;
  }

  String quote(String identifier);

  /** The descriptions a tables() row carries in its comment column. */
  default TableNotes notes(String comment) {
    return TableNotes.of(comment);
  }

  /** A view's SELECT from the tables() row's definition column. */
  default String viewDefinition(String definition) {
    return definition;
  }

  default String qualified(TableRef t) {
    return t.db() == null ? quote(t.name()) : quote(t.db()) + "." + quote(t.name());
  }


  /** A SQL string literal list, for IN (...). */
  static String literals(List<String> values) {
    StringBuilder b = new StringBuilder();
    for (String v : values) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append('\'').append(v.replace("'", "''")).append('\'');
    }
    return b.toString();
  }
}
