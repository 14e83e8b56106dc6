package dev.sluice.demo;

import dev.sluice.sql.Dialect;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders the demo schema as SQL for one engine: DDL, comments, indexes and parameterized
 * inserts. Every writer goes through here, so the engines cannot drift apart.
 *
 * <p>SQLite has no COMMENT statement, but it keeps the CREATE TABLE text verbatim in
 * {@code sqlite_master}, so table and column descriptions are rendered as {@code --} comments
 * inside it and remain discoverable.
 */
final class DemoSql {

  private final Dialect dialect;
  /** PostgreSQL schema or MySQL database; null for SQLite. */
  private final String namespace;

  DemoSql(Dialect dialect, String namespace) {
    this.dialect = dialect;
    this.namespace = dialect == Dialect.SQLITE ? null : namespace;
  }

  Dialect dialect() {
    return dialect;
  }

  String quote(String identifier) {
    return dialect == Dialect.MYSQL
        ? "`" + identifier.replace("`", "``") + "`"
        : "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  String qualified(String table) {
    return namespace == null ? quote(table) : quote(namespace) + "." + quote(table);
  }

  /** Creates the namespace; empty for SQLite. */
  List<String> createNamespace() {
    return switch (dialect) {
      case POSTGRES -> List.of("CREATE SCHEMA IF NOT EXISTS " + quote(namespace));
      case MYSQL -> List.of("CREATE DATABASE IF NOT EXISTS " + quote(namespace)
          + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
      case SQLITE -> List.of();
    };
  }

  /** Drops every demo table, children first, so a load replaces an earlier one. */
  List<String> dropTables() {
    List<String> out = new ArrayList<>();
    for (int i = DemoSchema.TABLES.size() - 1; i >= 0; i--) {
      out.add("DROP TABLE IF EXISTS " + qualified(DemoSchema.TABLES.get(i).name()));
    }
    return out;
  }

  /** CREATE TABLE, its indexes and (PostgreSQL) its comments. */
  List<String> createTable(DemoTable table) {
    List<String> parts = new ArrayList<>();
    List<String> sqliteComments = new ArrayList<>();
    for (DemoColumn c : table.columns()) {
      StringBuilder col = new StringBuilder("  ").append(quote(c.name())).append(' ').append(type(c));
      if (!c.nullable()) {
        col.append(" NOT NULL");
      }
      if (dialect == Dialect.MYSQL) {
        col.append(" COMMENT ").append(literal(c.comment()));
      }
      parts.add(col.toString());
      sqliteComments.add(c.comment());
    }
    parts.add("  PRIMARY KEY (" + quote(table.columns().get(0).name()) + ")");
    sqliteComments.add(null);
    for (DemoColumn c : table.columns()) {
      if (c.unique()) {
        parts.add("  CONSTRAINT " + quote(table.name() + "_" + c.name() + "_key")
            + " UNIQUE (" + quote(c.name()) + ")");
        sqliteComments.add(null);
      }
    }
    for (DemoColumn c : table.columns()) {
      if (c.references() != null) {
        parts.add("  CONSTRAINT " + quote(table.name() + "_" + c.name() + "_fkey")
            + " FOREIGN KEY (" + quote(c.name()) + ") REFERENCES "
            + qualified(c.references()) + " (" + quote("id") + ")");
        sqliteComments.add(null);
      }
    }

    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(qualified(table.name())).append(" (");
    if (dialect == Dialect.SQLITE) {
      ddl.append(" -- ").append(table.comment());
    }
    ddl.append('\n');
    for (int i = 0; i < parts.size(); i++) {
      ddl.append(parts.get(i));
      if (i < parts.size() - 1) {
        ddl.append(',');
      }
      if (dialect == Dialect.SQLITE && sqliteComments.get(i) != null) {
        ddl.append(" -- ").append(sqliteComments.get(i));
      }
      ddl.append('\n');
    }
    ddl.append(')');
    if (dialect == Dialect.MYSQL) {
      ddl.append(" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT=")
          .append(literal(table.comment()));
    }

    List<String> out = new ArrayList<>();
    out.add(ddl.toString());
    for (String column : table.indexes()) {
      out.add("CREATE INDEX " + quote(table.name() + "_" + column + "_idx")
          + " ON " + qualified(table.name()) + " (" + quote(column) + ")");
    }
    if (dialect == Dialect.POSTGRES) {
      out.add("COMMENT ON TABLE " + qualified(table.name()) + " IS " + literal(table.comment()));
      for (DemoColumn c : table.columns()) {
        out.add("COMMENT ON COLUMN " + qualified(table.name()) + "." + quote(c.name())
            + " IS " + literal(c.comment()));
      }
    }
    return out;
  }

  /** A multi-row INSERT with {@code rows} parameter groups. */
  String insert(DemoTable table, int rows) {
    StringBuilder sql = new StringBuilder("INSERT INTO ").append(qualified(table.name())).append(" (");
    List<DemoColumn> columns = table.columns();
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(quote(columns.get(i).name()));
    }
    sql.append(") VALUES ");
    int param = 1;
    for (int r = 0; r < rows; r++) {
      sql.append(r == 0 ? "(" : ", (");
      for (int i = 0; i < columns.size(); i++) {
        sql.append(i == 0 ? "" : ", ").append(dialect == Dialect.POSTGRES ? "$" + param : "?");
        param++;
      }
      sql.append(')');
    }
    return sql.toString();
  }

  /** SELECT of all columns in primary key order, for read-back and checksums. */
  String selectAll(DemoTable table) {
    StringBuilder sql = new StringBuilder("SELECT ");
    List<DemoColumn> columns = table.columns();
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(quote(columns.get(i).name()));
    }
    return sql.append(" FROM ").append(qualified(table.name()))
        .append(" ORDER BY ").append(quote(columns.get(0).name())).toString();
  }

  private String type(DemoColumn c) {
    return switch (dialect) {
      case POSTGRES -> switch (c.type()) {
        case INT -> "integer";
        case BIGINT -> "bigint";
        case TEXT -> "text";
        case NUMERIC -> "numeric(" + c.precision() + "," + c.scale() + ")";
        case BOOLEAN -> "boolean";
        case TIMESTAMP -> "timestamp";
        case JSON -> "jsonb";
      };
      case MYSQL -> switch (c.type()) {
        case INT -> "INT";
        case BIGINT -> "BIGINT";
        // bounded so that UNIQUE and secondary indexes work without prefix lengths
        case TEXT -> "VARCHAR(" + c.precision() + ")";
        case NUMERIC -> "DECIMAL(" + c.precision() + "," + c.scale() + ")";
        case BOOLEAN -> "BOOLEAN";
        case TIMESTAMP -> "DATETIME";
        case JSON -> "JSON";
      };
      // SQLite: declared types chosen for affinity and for the executor's type-driven formatting
      case SQLITE -> switch (c.type()) {
        case INT, BIGINT -> "INTEGER";
        case TEXT -> "TEXT";
        case NUMERIC -> "NUMERIC(" + c.precision() + "," + c.scale() + ")";
        case BOOLEAN -> "BOOLEAN";
        case TIMESTAMP -> "TIMESTAMP";
        case JSON -> "JSON";
      };
    };
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
