package dev.sluice.engine.mysql;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import java.util.List;

/**
 * Whether the session's {@code sql_select_limit} bounds what a statement sends back. The text
 * protocol has no row limit of its own: the server sends every row of the result. The variable
 * caps the outermost query expression (a UNION, a CTE's final SELECT, a table value constructor
 * alike, checked on MariaDB 10.11) but a LIMIT or FETCH clause of the statement's own replaces it.
 * So a statement qualifies when it starts with SELECT or WITH and its outermost level has no such
 * clause, or one whose row count is a literal no larger than the cap.
 */
final class SelectLimit {

  private SelectLimit() {
  }

  /** True when at most {@code rows} rows can come back with {@code sql_select_limit = rows}. */
  static boolean bounds(AnalysedStatement a, int rows) {
    if (a == null || a.kind() != StatementKind.QUERY || a.problem() != null || a.explained() != null) {
      return false;
    }
    List<Token> t = a.tokens();
    if (t.isEmpty() || !(t.get(0).is("select") || t.get(0).is("with"))) {
      return false;
    }
    int depth = 0;
    for (int i = 0; i < t.size(); i++) {
      Token k = t.get(i);
      if (k.isSymbol('(')) {
        depth++;
      } else if (k.isSymbol(')')) {
        depth--;
      } else if (depth == 0 && (k.is("fetch") || k.is("offset") || k.is("into") || k.is("procedure"))) {
        return false;
      } else if (depth == 0 && k.is("limit")) {
        // the outermost LIMIT ends the statement but for a lock clause
        return literalAtMost(t, i + 1, rows);
      }
    }
    return true;
  }

  /**
   * {@code LIMIT n}, {@code LIMIT m, n} or {@code LIMIT n OFFSET m} with literal numbers, n at most
   * {@code rows}, and nothing else before the statement ends (or its lock clause starts).
   */
  private static boolean literalAtMost(List<Token> t, int at, int rows) {
    Long first = count(t, at);
    if (first == null) {
      return false;
    }
    long n = first;
    int next = at + 1;
    if (next < t.size() && t.get(next).isSymbol(',')) {
      Long second = count(t, next + 1);
      if (second == null) {
        return false;
      }
      n = second;
      next += 2;
    } else if (next < t.size() && t.get(next).is("offset")) {
      if (count(t, next + 1) == null) {
        return false;
      }
      next += 2;
    }
    return n <= rows && (next == t.size() || t.get(next).is("for") || t.get(next).is("lock"));
  }

  private static Long count(List<Token> t, int at) {
    if (at >= t.size() || t.get(at).kind() != Token.Kind.NUMBER) {
      return null;
    }
    String digits = t.get(at).text();
    if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return Long.parseLong(digits);
  }
}
