package dev.sluice.engine.mysql;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.pool.RelationStandings;

/**
 * Which guarded reads cannot leave anything on a MySQL or MariaDB session, so that
 * COM_RESET_CONNECTION and the set-up after them may be left out.
 *
 * <p>A query can change the session only through what it runs. The guard admits built-in
 * functions of the allow-list only, whose {@code never} entries are the ones that set session
 * state (LAST_INSERT_ID, NEXTVAL, SETVAL), take locks or wait; it refuses variable assignments,
 * {@code INTO} and locking reads. MySQL has neither user-defined operators nor domains, so casts
 * and operators run nothing else either. What is left is what a relation runs when read: a view's
 * query may call a stored function, and a stored function may set anything. So a read is neutral
 * when it is a plain query that the guard passed and every relation it reads is a base table, by
 * information_schema ({@link RelationStandings} keeps what it said).
 *
 * <p>What every statement leaves behind, its FOUND_ROWS() and its warnings, is no session state of
 * its own making: the adapter clears both before the next statement that could read them
 * ({@link #readsDiagnostics}).
 */
final class SessionNeutralReads extends RelationStandings {

  SessionNeutralReads() {
    super(SessionNeutralReads::candidate);
  }

  /**
   * The look-up for one key: 1 when every relation by that name (compared as information_schema
   * compares, which may ignore case) is a base table, 0 otherwise or when there is none. The key
   * is lower-case letters, digits, underscores and at most one dot ({@link
   * RelationStandings#plainNames}), so it is written as literals.
   */
  static String lookUp(String key) {
    int dot = key.indexOf('.');
    String schema = dot < 0 ? "DATABASE()" : "'" + key.substring(0, dot) + "'";
    return "SELECT COUNT(*) > 0 AND MIN(TABLE_TYPE = 'BASE TABLE') FROM information_schema.TABLES"
        + " WHERE TABLE_SCHEMA = " + schema + " AND TABLE_NAME = '" + key.substring(dot + 1) + "'";
  }

  /**
   * Whether {@code a} may read what the statement before it on the connection left: FOUND_ROWS(),
   * ROW_COUNT(), or any {@code @@} variable ({@code @@warning_count}, {@code @@error_count}; any
   * {@code @} at all, to be sure). SHOW WARNINGS and GET DIAGNOSTICS are refused by the guard; a
   * relation that is no base table (information_schema's session status) makes a read
   * non-neutral, and those are cleared for in any case. True when there is no analysis.
   */
  static boolean readsDiagnostics(AnalysedStatement a) {
    if (a == null) {
      return true;
    }
    for (var f : a.functions()) {
      if ("found_rows".equals(f.name()) || "row_count".equals(f.name())) {
        return true;
      }
    }
    for (var t : a.tokens()) {
      if (t.isSymbol('@')) {
        return true;
      }
    }
    return false;
  }

  private static boolean candidate(AnalysedStatement a) {
    return a.kind() == StatementKind.QUERY && a.problem() == null && a.explained() == null && !a.assignsVariables()
        && RelationStandings.plainNames(a.relations());
  }
}
