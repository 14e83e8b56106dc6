package dev.sluice.engine.postgres;

import dev.sluice.sql.analysis.DialectBase;
import dev.sluice.sql.analysis.LexRules;
import dev.sluice.sql.analysis.Token;
import java.util.List;

/**
 * PostgreSQL's SQL as the analysis reads it. The lexer rules assume {@code
 * standard_conforming_strings = on} (backslash is literal in '...'), which the engine sets on
 * every connection so agents cannot make the server read a string differently.
 */
public final class PostgresDialect extends DialectBase {

  static final LexRules LEX = new LexRules(false, false, false, false, true, false, false, false, true, true,
      true, "\n\r");

  /** After LEX: the constructor reads it. */
  public static final PostgresDialect INSTANCE = new PostgresDialect();

  private PostgresDialect() {
    super("postgres", LEX);
  }

  @Override
  public boolean foldsUnquotedToLower() {
    return true;
  }

  /**
   * JSqlParser takes {@code path} for a keyword and fails on the geometric type's name ({@code
   * x::path}, {@code CAST(x AS path)}); quoted it is the same name to PostgreSQL, which folds the
   * unquoted word to lower case, and the engine runs the original.
   */
  @Override
  public String parserWord(Token word) {
    return word.is("path") ? "\"path\"" : null;
  }

  @Override
  public boolean builtinSchema(String schema) {
    return "pg_catalog".equalsIgnoreCase(schema);
  }

  /** EXPLAIN [ ( option [, ...] ) ] [ ANALYZE ] [ VERBOSE ] statement. */
  @Override
  public Explain explain(List<Token> tokens) {
    if (!tokens.get(0).is("explain")) {
      return null;
    }
    boolean analyze = false;
    int i = 1;
    if (i < tokens.size() && tokens.get(i).isSymbol('(')) {
      int depth = 0;
      for (; i < tokens.size(); i++) {
        Token t = tokens.get(i);
        depth += t.isSymbol('(') ? 1 : t.isSymbol(')') ? -1 : 0;
        if ((t.is("analyze") || t.is("analyse")) && !(i + 1 < tokens.size() && (tokens.get(i + 1).is("false")
            || tokens.get(i + 1).is("off") || tokens.get(i + 1).text().equals("0")))) {
          analyze = true;
        }
        if (depth == 0) {
          i++;
          break;
        }
      }
    }
    while (i < tokens.size() && (tokens.get(i).is("analyze") || tokens.get(i).is("analyse")
        || tokens.get(i).is("verbose"))) {
      analyze |= !tokens.get(i).is("verbose");
      i++;
    }
    return new Explain(i, analyze, null);
  }
}
