package dev.sluice.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's identity, lossless on every driver: PostgreSQL {database, schema, table}, MySQL
 * {null, database, table}, SQLite {null, schema (main or an attached name), table}.
 */
public record TableRef(String catalog, String db, String name) {

  /** How an agent writes the table in SQL on this driver (the SQLite main schema is implied). */
  public String display() {
    if (db == null || "main".equals(db) && catalog == null) {
      return name;
    }
    return db + "." + name;
  }

  /** Every part that is set, dot-joined ({@code catalog.db.name}). */
  public String qualified() {
    List<String> parts = new ArrayList<>();
    if (catalog != null) {
      parts.add(catalog);
    }
    if (db != null) {
      parts.add(db);
    }
    parts.add(name);
    return String.join(".", parts);
  }
}
