package dev.sluice.engine.mysql;

import dev.sluice.catalog.Introspection;
import dev.sluice.catalog.TableRef;
import java.net.URI;
import java.util.List;

/** MySQL and MariaDB: information_schema, limited to the configured databases. */
final class MySqlIntrospection implements Introspection {

  private static final String SYSTEM = "('mysql', 'information_schema', 'performance_schema', 'sys')";
  private final String filter;

  MySqlIntrospection(List<String> databases) {
    this.filter = databases.isEmpty() ? " NOT IN " + SYSTEM : " IN (" + Introspection.literals(databases) + ")";
  }

  /** The database a {@code mysql://host/db} URL names; empty (every user database) when none. */
  static List<String> urlDatabase(String url) {
    try {
      String path = URI.create(url).getPath();
      String db = path == null ? "" : path.replaceFirst("^/", "");
      return db.isEmpty() ? List.of() : List.of(db);
    } catch (IllegalArgumentException e) {
      return List.of();
    }
  }

  @Override
  public String tables() {
    // VIEW_DEFINITION is empty unless the scan role may SHOW VIEW; the scanner keeps that as null
    return "SELECT NULL, t.table_schema, t.table_name,"
        + " CASE WHEN t.table_type = 'VIEW' THEN 'view' ELSE 'table' END,"
        + " CASE WHEN t.table_type = 'VIEW' OR t.table_comment = '' THEN NULL ELSE t.table_comment END,"
        + " t.table_rows, v.view_definition"
        + " FROM information_schema.tables t LEFT JOIN information_schema.views v"
        + " ON v.table_schema = t.table_schema AND v.table_name = t.table_name"
        + " WHERE t.table_schema" + filter
        + " ORDER BY t.table_schema, t.table_name";
  }

  @Override
  public String columns(TableRef only) {
    return "SELECT table_schema, table_name, column_name, column_type, is_nullable = 'YES',"
        + " NULLIF(column_comment, ''), column_key = 'PRI'"
        + " FROM information_schema.columns WHERE table_schema" + filter
        + (only == null ? "" : " AND table_schema = " + Introspection.literals(List.of(only.db()))
            + " AND table_name = " + Introspection.literals(List.of(only.name())))
        + " ORDER BY table_schema, table_name, ordinal_position";
  }

  @Override
  public String foreignKeys() {
    return "SELECT table_schema, table_name, column_name, NULL, referenced_table_schema,"
        + " referenced_table_name, referenced_column_name, constraint_name"
        + " FROM information_schema.key_column_usage"
        + " WHERE referenced_table_name IS NOT NULL AND table_schema" + filter
        + " ORDER BY table_schema, table_name, constraint_name, ordinal_position";
  }

  @Override
  public String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }
}
