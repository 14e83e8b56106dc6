package dev.sluice.engine.postgres;

import dev.sluice.catalog.Introspection;
import dev.sluice.catalog.TableRef;
import java.util.List;

/** PostgreSQL: reads pg_catalog directly (information_schema hides objects and is slower). */
final class PgIntrospection implements Introspection {

  private static final String KINDS = "('r','p','v','m','f')";
  private final String schemaFilter;

  PgIntrospection(List<String> schemas) {
    this.schemaFilter = schemas.isEmpty()
        ? "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'"
            + " AND n.nspname NOT LIKE 'pg\\_temp%'"
        : "n.nspname IN (" + Introspection.literals(schemas) + ")";
  }

  @Override
  public String tables() {
    return "SELECT current_database(), n.nspname, c.relname,"
        + " CASE WHEN c.relkind IN ('v','m') THEN 'view' ELSE 'table' END,"
        + " obj_description(c.oid, 'pg_class'),"
        + " CASE WHEN c.reltuples < 0 THEN NULL ELSE c.reltuples::bigint END,"
        + " CASE WHEN c.relkind IN ('v','m') THEN pg_get_viewdef(c.oid) END"
        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        + " WHERE c.relkind IN " + KINDS + " AND NOT c.relispartition AND " + schemaFilter
        + " ORDER BY n.nspname, c.relname";
  }

  @Override
  public String columns(TableRef only) {
    return "SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod),"
        + " NOT a.attnotnull, col_description(c.oid, a.attnum),"
        + " EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary"
        + " AND a.attnum = ANY (i.indkey))"
        + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        + " JOIN pg_namespace n ON n.oid = c.relnamespace"
        + " WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN " + KINDS
        + " AND NOT c.relispartition AND " + schemaFilter
        + (only == null ? "" : " AND n.nspname = " + Introspection.literals(List.of(only.db()))
            + " AND c.relname = " + Introspection.literals(List.of(only.name())))
        + " ORDER BY n.nspname, c.relname, a.attnum";
  }

  @Override
  public String foreignKeys() {
    return "SELECT n.nspname, c.relname, a.attname, current_database(), tn.nspname, tc.relname, ta.attname,"
        + " con.conname"
        + " FROM pg_constraint con"
        + " JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
        + " JOIN pg_class tc ON tc.oid = con.confrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace"
        + " CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS k(from_num, to_num)"
        + " JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.from_num"
        + " JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = k.to_num"
        + " WHERE con.contype = 'f' AND " + schemaFilter
        + " ORDER BY n.nspname, c.relname, con.conname, k.from_num";
  }

  @Override
  public String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
