package dev.sluice.catalog;

import java.util.List;

/**
 * A table or view in a snapshot.
 *
 * @param kind {@code table} or {@code view}
 * @param estimatedRows the engine's estimate (PostgreSQL reltuples, MySQL table_rows, SQLite a
 *     count under the deadline); null when unknown
 * @param definition a view's SELECT as the engine keeps it, for table policies to follow the view
 *     to its tables; null for tables and for views whose text the scan role may not read
 */
public record CatalogTable(
    TableRef ref,
    String kind,
    String comment,
    Long estimatedRows,
    List<CatalogColumn> columns,
    List<CatalogForeignKey> foreignKeys,
    String definition) {

  public CatalogTable {
    columns = List.copyOf(columns);
    foreignKeys = List.copyOf(foreignKeys);
    definition = definition == null || definition.isBlank() ? null : definition;
  }

  /** A table, or a view without its definition. */
  public CatalogTable(TableRef ref, String kind, String comment, Long estimatedRows, List<CatalogColumn> columns,
      List<CatalogForeignKey> foreignKeys) {
    this(ref, kind, comment, estimatedRows, columns, foreignKeys, null);
  }

  public CatalogTable withColumns(List<CatalogColumn> cs) {
    return new CatalogTable(ref, kind, comment, estimatedRows, cs, foreignKeys, definition);
  }
}
