package dev.sluice.engine.postgres;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import dev.sluice.sql.pool.RelationStandings;

/**
 * Which guarded reads cannot leave anything on a PostgreSQL session, so the session reset after
 * them (about 110 µs of server time and a third of the transactions per call) may be left out.
 *
 * <p>A query can change the session only through what it runs: functions (the guard admits only
 * the allow-list, whose {@code never} entries are exactly the ones that set, lock, listen or run
 * text), casts (a domain's CHECK may call any function: a statement with a cast is not
 * neutral), operators (each is a function; the database's owners may have defined their own, so
 * only the everyday symbols, and no {@code OPERATOR(...)}), and what a relation runs when read: a
 * view's query, a table's row-level security policies. So a read is neutral when it is a plain
 * query that the guard passed, names no type, uses no operator beyond those symbols, and every
 * relation it reads is an ordinary, partitioned or materialized table without row-level security,
 * known from the catalog ({@link RelationStandings} keeps what it said).
 */
final class SessionNeutralReads extends RelationStandings {

  /** Reads one name's standing: true when neutral, false when not, no row when there is none. */
  static final String LOOK_UP = "SELECT c.relkind IN ('r', 'p', 'm') AND NOT c.relrowsecurity FROM pg_class c"
      + " WHERE c.oid = to_regclass($1)";
  /** Punctuation and the operators of comparison, arithmetic and concatenation. */
  private static final String EVERYDAY_SYMBOLS = "(),.=<>!+-*/%|[]";

  SessionNeutralReads() {
    super(SessionNeutralReads::candidate);
  }

  private static boolean candidate(AnalysedStatement a) {
    if (a.kind() != StatementKind.QUERY || a.problem() != null || a.explained() != null
        || !a.types().isEmpty() || a.assignsVariables()) {
      return false;
    }
    for (Token t : a.tokens()) {
      if (t.kind() == Token.Kind.SYMBOL && EVERYDAY_SYMBOLS.indexOf(t.text().charAt(0)) < 0
          || t.is("operator")) {
        return false;
      }
    }
    return RelationStandings.plainNames(a.relations());
  }
}
