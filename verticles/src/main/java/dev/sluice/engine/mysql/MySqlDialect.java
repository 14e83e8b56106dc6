package dev.sluice.engine.mysql;

import dev.sluice.sql.analysis.DialectBase;
import dev.sluice.sql.analysis.LexRules;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.Relation;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MySQL's and MariaDB's SQL as the analysis reads it. The lexer rules assume backslash escapes on
 * and ANSI_QUOTES off (a "..." string), which the engine pins in every session's sql_mode, so an
 * agent cannot make the server read a quote differently from the guard.
 */
public final class MySqlDialect extends DialectBase {

  static final LexRules LEX = new LexRules(true, true, true, false, false, true, true, true, false, false, false,
      "\n");

  /** After LEX: the constructor reads it. */
  public static final MySqlDialect INSTANCE = new MySqlDialect();

  /** SHOW forms that only list or describe tables (the rest show server state or other sessions). */
  private static final Set<String> SHOW_WHAT = Set.of("tables", "columns", "fields", "index", "indexes", "keys",
      "databases", "schemas", "table", "create");

  private MySqlDialect() {
    super("mysql", LEX);
  }

  /**
   * EXPLAIN | DESCRIBE | DESC [EXTENDED | PARTITIONS | ANALYZE | FORMAT = name] statement; the
   * same words before a table name are SHOW COLUMNS (null here).
   */
  @Override
  public Explain explain(List<Token> tokens) {
    int i = 1;
    boolean analyze = false;
    while (i < tokens.size()) {
      Token t = tokens.get(i);
      if (t.is("extended") || t.is("partitions")) {
        i++;
      } else if (t.is("analyze")) {
        analyze = true;
        i++;
      } else if (t.is("format") && i + 2 < tokens.size() && tokens.get(i + 1).isSymbol('=')) {
        i += 3;
      } else if (t.is("for")) {
        return new Explain(i, false, Refusal.of("explain_connection", "EXPLAIN FOR CONNECTION shows another "
            + "session's statement", "Explain your own statement: EXPLAIN SELECT ..."));
      } else {
        break;
      }
    }
    if (i < tokens.size() && (tokens.get(i).isSymbol('(') || Set.of("select", "with", "table", "values", "insert",
        "update", "delete", "replace").contains(tokens.get(i).text().toLowerCase(Locale.ROOT))
        && tokens.get(i).kind() == Token.Kind.WORD)) {
      return new Explain(i, analyze, null);
    }
    return i >= tokens.size() && tokens.get(0).is("explain") ? new Explain(i, false, null) : null;
  }

  @Override
  public Refusal metadataRead(StatementKind kind, List<Token> tokens) {
    if (kind == StatementKind.DESCRIBE && tokens.size() >= 2 && tokens.get(1).isName()) {
      return null;
    }
    if (kind == StatementKind.SHOW) {
      int i = 1;
      if (i < tokens.size() && tokens.get(i).is("full")) {
        i++;
      }
      if (i < tokens.size() && tokens.get(i).kind() == Token.Kind.WORD
          && SHOW_WHAT.contains(tokens.get(i).text().toLowerCase(Locale.ROOT))) {
        Token w = tokens.get(i);
        boolean ok = !w.is("table") && !w.is("create")
            || w.is("table") && i + 1 < tokens.size() && tokens.get(i + 1).is("status")
            || w.is("create") && i + 1 < tokens.size() && (tokens.get(i + 1).is("table") || tokens.get(i + 1).is("view"));
        if (ok) {
          return null;
        }
      }
      return Refusal.of("show", "only SHOW TABLES, COLUMNS, INDEX, DATABASES, TABLE STATUS and SHOW CREATE "
          + "TABLE/VIEW are allowed", "Query information_schema instead.");
    }
    return super.metadataRead(kind, tokens);
  }

  @Override
  public List<Relation> metadataRelations(StatementKind kind, List<Token> tokens) {
    List<Relation> out = new ArrayList<>();
    if (kind == StatementKind.DESCRIBE && tokens.size() >= 2) {
      out.add(relationAt(tokens, 1));
    } else if (kind == StatementKind.SHOW) {
      for (int i = 1; i + 1 < tokens.size(); i++) {
        Token t = tokens.get(i);
        if ((t.is("from") || t.is("in")) && tokens.get(i + 1).isName() && out.isEmpty()
            || (t.is("table") || t.is("view")) && i >= 2 && tokens.get(i - 1).is("create")) {
          out.add(relationAt(tokens, i + 1));
        }
      }
    }
    return out;
  }

  /** db.t or t starting at token i. */
  private static Relation relationAt(List<Token> t, int i) {
    if (i + 2 < t.size() && t.get(i + 1).isSymbol('.') && t.get(i + 2).isName()) {
      return new Relation(t.get(i).value(), t.get(i + 2).value(), false);
    }
    return new Relation(null, t.get(i).value(), false);
  }
}
