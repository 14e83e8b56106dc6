package dev.sluice.sql.analysis;

import dev.sluice.sql.guard.FunctionRules;
import java.util.List;

/**
 * What the analysis must know of one engine's SQL. Each engine package provides one; nothing in
 * the analysis names an engine.
 */
public interface SqlDialect {

  /** A short name for messages and cache keys, e.g. {@code postgres}. */
  String name();

  LexRules lexRules();

  FunctionRules functions();

  /**
   * The token as the SQL parser should read it, or null to keep it: a dialect operator the parser
   * does not know may be replaced by one with the same shape (SQLite's GLOB read as LIKE). The
   * engine still runs the original text.
   */
  default String parserWord(Token word) {
    return null;
  }

  /**
   * Whether an unquoted identifier is folded to lower case by the engine (PostgreSQL), so that
   * {@code Payments} and {@code payments} name the same table.
   */
  default boolean foldsUnquotedToLower() {
    return false;
  }

  /**
   * Whether a function qualified with this schema is the engine's built-in one (PostgreSQL's
   * {@code pg_catalog}). Any other qualifier reaches a user-defined function, which no allow-list
   * vouches for.
   */
  default boolean builtinSchema(String schema) {
    return false;
  }

  /**
   * The engine's EXPLAIN: where the explained statement starts in {@code tokens} (which begin with
   * the EXPLAIN keyword) and whether the engine executes it; null when the tokens explain no
   * statement (MySQL's DESCRIBE of a table).
   */
  Explain explain(List<Token> tokens);

  /**
   * For SHOW / DESCRIBE / PRAGMA: null when this engine answers the statement as a plain read of
   * metadata, else why it may not run.
   */
  default Refusal metadataRead(StatementKind kind, List<Token> tokens) {
    return Refusal.of("not_read_only", kind.name() + " is not a statement " + name() + " reads",
        "Send one SELECT statement.");
  }

  /** The relations a metadata statement names (SHOW COLUMNS FROM t, PRAGMA table_info(t)). */
  default List<Relation> metadataRelations(StatementKind kind, List<Token> tokens) {
    return List.of();
  }

  /**
   * Where an EXPLAIN's statement starts and whether it runs.
   *
   * @param innerStart token index of the explained statement's first token
   * @param analyze the engine executes the statement to measure it
   * @param refusal when this EXPLAIN form may not run at all (e.g. EXPLAIN FOR CONNECTION)
   */
  record Explain(int innerStart, boolean analyze, Refusal refusal) {}
}
