package dev.sluice.engine.postgres;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Relation;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * known from the catalog. What the catalog said is kept for {@link #TTL_MS} per name;
 * a name not known yet (or not lately) is looked up in the same flight as the reset its call gets
 * anyway, so the look-up costs no round trip. A table replaced by a view is noticed within the
 * TTL; until then its reads go without a reset, which the guard's allow-list still bounds.
 *
 * <p>Only names that read the same quoted and unquoted are cached (lower-case letters, digits,
 * underscores): the analysis decodes names, and {@code to_regclass} must resolve exactly the
 * relation the statement read. Its connections' answers may arrive on other event loops than the
 * executor's, so it locks (uncontended: a map look-up per relation).
 */
final class SessionNeutralReads {

  static final long TTL_MS = 60_000;
  static final int MAX_NAMES = 4_096;
  /** Reads one name's standing: true when neutral, false when not, no row when there is none. */
  static final String LOOK_UP = "SELECT c.relkind IN ('r', 'p', 'm') AND NOT c.relrowsecurity FROM pg_class c"
      + " WHERE c.oid = to_regclass($1)";
  /** Punctuation and the operators of comparison, arithmetic and concatenation. */
  private static final String EVERYDAY_SYMBOLS = "(),.=<>!+-*/%|[]";

  private record Known(boolean neutral, long at) {}

  private final Map<String, Known> names = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
      return size() > MAX_NAMES;
    }
  };

  /** True when the statement needs no session reset after it. */
  synchronized boolean neutral(AnalysedStatement a, long nowMs) {
    if (!candidate(a)) {
      return false;
    }
    for (Relation r : a.relations()) {
      Known k = names.get(key(r));
      if (k == null || !k.neutral || nowMs - k.at > TTL_MS) {
        return false;
      }
    }
    return true;
  }

  /** The names of {@code a} to look up now (their standing is unknown or old), as to_regclass text. */
  synchronized List<String> toLookUp(AnalysedStatement a, long nowMs) {
    List<String> out = new ArrayList<>();
    if (!candidate(a)) {
      return out;
    }
    for (Relation r : a.relations()) {
      String key = key(r);
      Known k = names.get(key);
      if ((k == null || nowMs - k.at > TTL_MS) && !out.contains(key)) {
        out.add(key);
      }
    }
    return out;
  }

  /** What the catalog said of {@code name} (null: no such relation, which is not neutral). */
  synchronized void learned(String name, Boolean neutral, long nowMs) {
    names.put(name, new Known(Boolean.TRUE.equals(neutral), nowMs));
  }

  private static boolean candidate(AnalysedStatement a) {
    if (a == null || a.kind() != StatementKind.QUERY || a.problem() != null || a.explained() != null
        || !a.types().isEmpty() || a.assignsVariables()) {
      return false;
    }
    for (Token t : a.tokens()) {
      if (t.kind() == Token.Kind.SYMBOL && EVERYDAY_SYMBOLS.indexOf(t.text().charAt(0)) < 0
          || t.is("operator")) {
        return false;
      }
    }
    for (Relation r : a.relations()) {
      if (r.function() || !plainName(r.name()) || r.schema() != null && !plainName(r.schema())) {
        return false;
      }
    }
    return true;
  }

  /** [a-z_][a-z0-9_]*, without a regex matcher per name per call. */
  static boolean plainName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  private static String key(Relation r) {
    return r.schema() == null ? r.name() : r.schema() + "." + r.name();
  }
}
