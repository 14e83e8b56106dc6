package dev.sluice.sql.guard;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.FunctionCall;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides from an {@link AnalysedStatement} whether it is one read-only query an agent may run:
 * a read kind (SELECT, WITH, VALUES, TABLE, EXPLAIN of one, the engine's metadata reads), no
 * data-modifying clause, INTO, locking read or session-variable assignment, and only functions on
 * the engine's allow-list. Reads the analysis only; never the text.
 */
public final class ReadGuard {

  /** Words that make a statement write wherever they stand (a column so named must be quoted). */
  private static final Set<String> WRITE_WORDS = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  static {
    WRITE_WORDS.addAll(List.of("insert", "update", "delete", "merge", "upsert"));
  }
  /** Problems found before any parsing: the text has no reliable tokens or statement boundary. */
  private static final Set<String> LEXICAL = Set.of("too_long", "control_character", "executable_comment",
      "optimizer_hint", "multiple_statements", "too_deep", "empty", "too_complex");

  private ReadGuard() {}

  /** Null when the statement may run as a read; else why not. */
  public static Refusal check(AnalysedStatement a) {
    // a statement the lexer could not read, or more than one: nothing else about it is reliable
    if (a.problem() != null && a.tokens().isEmpty() || a.problem() != null && LEXICAL.contains(a.problem().rule())) {
      return a.problem();
    }
    boolean readKind = a.kind() == StatementKind.QUERY || a.kind() == StatementKind.EXPLAIN
        || a.kind() == StatementKind.SHOW || a.kind() == StatementKind.DESCRIBE || a.kind() == StatementKind.PRAGMA;
    if (!readKind && !a.firstWord().isEmpty()) {
      return StatementKinds.refusal(a.firstWord());
    }
    // what the tokens show holds even where the parser failed, and says more than "unparseable"
    Refusal t = tokens(a.tokens(), a.dialect().functions());
    if (t != null) {
      return t;
    }
    switch (a.kind()) {
      case QUERY, SHOW, DESCRIBE, PRAGMA:
        break;
      case EXPLAIN:
        if (a.explained() == null) {
          return a.problem();
        }
        Refusal inner = check(a.explained());
        if (inner != null) {
          return inner;
        }
        if (a.explained().kind() != StatementKind.QUERY) {
          return Refusal.of("not_read_only", "EXPLAIN may only explain a query", "Explain one SELECT statement.");
        }
        return null;
      default:
        return StatementKinds.refusal(a.firstWord());
    }
    if (a.problem() != null) {
      return a.problem();
    }
    if (a.assignsVariables()) {
      return Refusal.of("session_variable", "assigning a session variable (@v := ...) leaves state on the "
          + "connection for the next caller", "Compute the value in the query itself, e.g. with a CTE.");
    }
    for (FunctionCall f : a.functions()) {
      if (f.schema() != null && !a.dialect().builtinSchema(f.schema())) {
        return Refusal.of("function_not_allowed", "function " + f.schema() + "." + f.name() + "() is a "
            + "user-defined function (qualified with '" + f.schema() + "'); only the engine's built-in functions "
            + "may be called", "Call built-in functions without a schema, or ask the operator for an approved query.");
      }
      FunctionRules.Verdict v = a.dialect().functions().of(f.name(), false);
      if (!v.allowed()) {
        return functionRefusal(f.name(), v);
      }
    }
    return null;
  }

  /** The refusal for a function the allow-list (or the never list) does not let through. */
  public static Refusal functionRefusal(String name, FunctionRules.Verdict v) {
    if ("never".equals(v.category())) {
      return Refusal.of("forbidden_function", "function " + name + "() is not allowed: " + v.why(),
          "Remove the call to " + name + "(); only plain reads can run here.");
    }
    if (v.category() != null) {
      return Refusal.of("function_not_allowed", "function " + name + "() is not allowed for you: " + v.why(),
          "Use entity_details, discover_data or sql_dialect_notes instead, or leave the call out.");
    }
    return Refusal.of("function_not_allowed", "function " + name + "() is not allowed: " + v.why(),
        "Use the engine's built-in aggregates, string, date, math and JSON functions (sql_dialect_notes lists "
            + "common ones), or compute the value another way.");
  }

  /** Token-level refusals: they hold whether or not the parser modelled the clause. */
  private static Refusal tokens(List<Token> code, FunctionRules functions) {
    for (int i = 0; i < code.size(); i++) {
      Token tok = code.get(i);
      boolean call = i + 1 < code.size() && code.get(i + 1).isSymbol('(') && tok.isName();
      if (call && functions.never(tok.value())) {
        FunctionRules.Verdict v = functions.of(tok.value(), false);
        return functionRefusal(tok.value().toLowerCase(Locale.ROOT), v);
      }
      if (tok.isSymbol('@') && i + 3 < code.size() && code.get(i + 1).isName() && code.get(i + 2).isSymbol(':')
          && code.get(i + 3).isSymbol('=')) {
        return Refusal.of("session_variable", "assigning a session variable (@v := ...) leaves state on the "
            + "connection for the next caller", "Compute the value in the query itself, e.g. with a CTE.");
      }
      if (tok.kind() != Token.Kind.WORD) {
        continue;
      }
      // compared without case, not lower-cased: a copy of every upper-case keyword on every call
      String w = tok.text();
      if ((tok.is("update") || tok.is("share")) && i > 0
          && (code.get(i - 1).is("for") || code.get(i - 1).is("key") || code.get(i - 1).is("no"))) {
        return Refusal.of("locking_read", "locking reads (FOR " + w.toUpperCase(Locale.ROOT) + ") take row locks",
            "Drop the FOR UPDATE / FOR SHARE clause.");
      }
      if (tok.is("lock") && i + 2 < code.size() && code.get(i + 1).is("in") && code.get(i + 2).is("share")) {
        return Refusal.of("locking_read", "LOCK IN SHARE MODE takes row locks", "Drop the LOCK IN SHARE MODE clause.");
      }
      if (WRITE_WORDS.contains(w) && !(i > 0 && code.get(i - 1).isSymbol('.'))) {
        return Refusal.of("data_modifying_statement", w.toUpperCase(Locale.ROOT) + " modifies data (also inside "
            + "a WITH clause or EXPLAIN ANALYZE)", "Only SELECT can run here; if a column is named " + tok.text()
            + ", quote it.");
      }
      if (tok.is("into")) {
        return Refusal.of("select_into", "SELECT ... INTO writes a table, a file or variables",
            "Remove the INTO clause; the rows come back in the result.");
      }
    }
    return null;
  }
}
