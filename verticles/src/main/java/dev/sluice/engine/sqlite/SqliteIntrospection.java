package dev.sluice.engine.sqlite;

import dev.sluice.catalog.Introspection;
import dev.sluice.catalog.TableNotes;
import dev.sluice.catalog.TableRef;
import dev.sluice.sql.analysis.SqlLexer;
import dev.sluice.sql.analysis.Token;
import java.util.List;

/**
 * SQLite: sqlite_master and the pragma table-valued functions of the {@code main} schema. SQLite
 * has no COMMENT statement; {@link SqliteDdlComments} reads {@code --} comments kept in the
 * CREATE TABLE text instead.
 */
final class SqliteIntrospection implements Introspection {

  private static final String OBJECTS = "m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";

  @Override
  public String tables() {
    // The comment column carries the CREATE text; the scanner extracts the comments from it.
    // the definition column is the CREATE VIEW text too; the scanner keeps its SELECT
    return "SELECT NULL, 'main', m.name, m.type, m.sql, NULL, CASE WHEN m.type = 'view' THEN m.sql END"
        + " FROM sqlite_master m WHERE " + OBJECTS
        + " ORDER BY m.name";
  }

  @Override
  public String columns(TableRef only) {
    return "SELECT 'main', m.name, p.name, p.type, p.\"notnull\" = 0, NULL, p.pk > 0"
        + " FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE " + OBJECTS
        + (only == null ? "" : " AND m.name = " + Introspection.literals(java.util.List.of(only.name())))
        + " ORDER BY m.name, p.cid";
  }

  @Override
  public String foreignKeys() {
    return "SELECT 'main', m.name, f.\"from\", NULL, 'main', f.\"table\", f.\"to\", NULL"
        + " FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'"
        + " AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, f.id, f.seq";
  }

  @Override
  public String rowCount(TableRef table) {
    return "SELECT COUNT(*) FROM " + qualified(table);
  }

  /** SQLite has no COMMENT: descriptions are {@code --} comments kept in the CREATE TABLE text. */
  @Override
  public TableNotes notes(String createText) {
    SqliteDdlComments ddl = SqliteDdlComments.parse(createText);
    return new TableNotes(ddl.table, ddl.columns);
  }

  /** The SELECT of a CREATE VIEW text: everything after the AS that follows the view's name. */
  @Override
  public String viewDefinition(String createView) {
    if (createView == null) {
      return null;
    }
    List<Token> t = SqlLexer.lex(SqliteDialect.LEX, createView).tokens();
    int depth = 0;
    boolean afterView = false;
    for (int i = 0; i + 1 < t.size(); i++) {
      Token tok = t.get(i);
      afterView |= tok.is("view");
      depth += tok.isSymbol('(') ? 1 : tok.isSymbol(')') ? -1 : 0;
      if (afterView && depth == 0 && tok.is("as")) {
        return createView.substring(t.get(i + 1).start()).strip();
      }
    }
    return null;
  }

  @Override
  public String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
