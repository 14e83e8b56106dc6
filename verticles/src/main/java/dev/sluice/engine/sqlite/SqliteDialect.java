package dev.sluice.engine.sqlite;

import dev.sluice.sql.analysis.DialectBase;
import dev.sluice.sql.analysis.LexRules;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.Relation;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import java.util.List;
import java.util.Set;

/**
 * SQLite's SQL as the analysis reads it: '...' strings without backslash escapes, "x", `x` and
 * [x] identifiers, non-nested block comments, and the read-only PRAGMAs that take a table.
 */
public final class SqliteDialect extends DialectBase {

  static final LexRules LEX = new LexRules(false, false, true, true, false, false, false, false, false, false,
      false, "\n");

  /** After LEX: the constructor reads it. */
  public static final SqliteDialect INSTANCE = new SqliteDialect();

  /** PRAGMAs that only describe a table or index; they take its name as argument. */
  static final Set<String> READ_PRAGMAS = Set.of("table_info", "table_xinfo", "index_list", "index_info",
      "index_xinfo", "foreign_key_list");

  private SqliteDialect() {
    super("sqlite", LEX);
  }

  /** JSqlParser does not know GLOB; LIKE has the same shape, and the engine runs the original. */
  @Override
  public String parserWord(Token word) {
    return word.is("glob") ? "LIKE" : null;
  }

  /** EXPLAIN [QUERY PLAN] statement. */
  @Override
  public Explain explain(List<Token> tokens) {
    if (!tokens.get(0).is("explain")) {
      return null;
    }
    int i = 1;
    if (i + 1 < tokens.size() && tokens.get(i).is("query") && tokens.get(i + 1).is("plan")) {
      i += 2;
    }
    return new Explain(i, false, null);
  }

  @Override
  public Refusal metadataRead(StatementKind kind, List<Token> tokens) {
    if (kind == StatementKind.PRAGMA && pragmaTarget(tokens) != null) {
      return null;
    }
    return Refusal.of("pragma", "only the read-only PRAGMAs " + String.join(", ", READ_PRAGMAS.stream().sorted()
        .toList()) + " (with a table argument) are allowed", "Use PRAGMA table_info('t'), or query sqlite_master.");
  }

  @Override
  public List<Relation> metadataRelations(StatementKind kind, List<Token> tokens) {
    String target = kind == StatementKind.PRAGMA ? pragmaTarget(tokens) : null;
    return target == null ? List.of() : List.of(new Relation(null, target, false));
  }

  /** PRAGMA [schema.]name(arg): the argument, when name is a read-only PRAGMA; else null. */
  private static String pragmaTarget(List<Token> t) {
    int i = 1;
    if (i + 1 < t.size() && t.get(i + 1).isSymbol('.')) {
      i += 2;
    }
    if (i + 4 == t.size() && t.get(i).isName()
        && READ_PRAGMAS.contains(t.get(i).value().toLowerCase(java.util.Locale.ROOT))
        && t.get(i + 1).isSymbol('(') && t.get(i + 3).isSymbol(')')
        && (t.get(i + 2).isName() || t.get(i + 2).kind() == Token.Kind.STRING)) {
      return t.get(i + 2).value();
    }
    return null;
  }
}
