package dev.sluice.sql.analysis;

import java.util.List;

/**
 * Everything the gateway knows about one statement, produced once per call by {@link SqlAnalyzer}
 * and read by every later stage: the read and write guards, the table policy, routing by mode, the
 * executor and the audit fingerprint. Nothing else scans SQL text.
 *
 * @param dialect the engine whose rules read it
 * @param text the one statement, without surrounding comments, blanks and trailing {@code ;}:
 *     exactly what is sent to the engine
 * @param textStart offset of {@code text} in the agent's input (token offsets are in the input)
 * @param kind what the statement is
 * @param firstWord its leading keyword, lower case (for messages)
 * @param problem why it cannot be read safely (lexical problem, a second statement, the lexer and
 *     the parser disagreeing, unparseable, too long, too deep), or null
 * @param tokens its code tokens
 * @param relations the base relations it reads, after CTE names and derived tables were scoped
 *     out
 * @param columns every column reference with the relations it may belong to
 * @param wholeRows indexes into {@code relations} whose every column is exposed: {@code *},
 *     {@code t.*}, a whole-row reference ({@code t}, {@code row_to_json(t)}, {@code t::text}),
 *     {@code TABLE t}, NATURAL JOIN, a cast to the relation's row type
 * @param functions every function called, decoded
 * @param types every type named in a cast, decoded and lower case
 * @param assignsVariables it assigns a session variable ({@code @v := ...})
 * @param explained for EXPLAIN, the statement explained (its own analysis), else null
 * @param analyze for EXPLAIN, whether it executes the statement (ANALYZE)
 * @param write for a data-changing statement, its target and whether it touches every row
 * @param fingerprint the statement with literals replaced by {@code ?}, for the audit trail
 */
public record AnalysedStatement(
    SqlDialect dialect,
    String text,
    int textStart,
    StatementKind kind,
    String firstWord,
    Refusal problem,
    List<Token> tokens,
    List<Relation> relations,
    List<ColumnUse> columns,
    List<Integer> wholeRows,
    List<FunctionCall> functions,
    List<String> types,
    boolean assignsVariables,
    AnalysedStatement explained,
    boolean analyze,
    Write write,
    String fingerprint) {

  /**
   * What a write changes.
   *
   * @param table the target as written (decoded)
   * @param everyRow DROP, TRUNCATE, or UPDATE/DELETE without WHERE
   */
  public record Write(String table, boolean everyRow) {}

  /** The statement that reads data: the explained one for EXPLAIN, else this. */
  public AnalysedStatement reading() {
    return explained != null ? explained.reading() : this;
  }

  public boolean readable() {
    return problem == null;
  }
}
