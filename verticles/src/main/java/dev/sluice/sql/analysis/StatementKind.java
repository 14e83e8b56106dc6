package dev.sluice.sql.analysis;

/** What a statement is, by its leading keyword as the engine reads it. */
public enum StatementKind {
  /** SELECT, WITH ... SELECT, VALUES, TABLE, or a parenthesised query. */
  QUERY,
  /** EXPLAIN (and SQLite EXPLAIN QUERY PLAN, MySQL DESCRIBE/DESC of a statement). */
  EXPLAIN,
  /** MySQL SHOW. */
  SHOW,
  /** MySQL DESCRIBE/DESC of a table. */
  DESCRIBE,
  /** SQLite PRAGMA. */
  PRAGMA,
  INSERT,
  UPDATE,
  DELETE,
  MERGE,
  REPLACE,
  CREATE,
  ALTER,
  DROP,
  TRUNCATE,
  /** Anything else: session control, host access, procedures, maintenance ... */
  OTHER;

  /** The kind a leading keyword announces (lower case). */
  public static StatementKind of(String firstWord) {
    return switch (firstWord) {
      case "select", "with", "values", "table" -> QUERY;
      case "explain" -> EXPLAIN;
      case "show" -> SHOW;
      case "describe", "desc" -> DESCRIBE;
      case "pragma" -> PRAGMA;
      case "insert" -> INSERT;
      case "update" -> UPDATE;
      case "delete" -> DELETE;
      case "merge" -> MERGE;
      case "replace", "upsert" -> REPLACE;
      case "create" -> CREATE;
      case "alter" -> ALTER;
      case "drop" -> DROP;
      case "truncate" -> TRUNCATE;
      default -> OTHER;
    };
  }
}
