package dev.sluice.sql.guard;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.FunctionCall;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.Token;
import java.util.Locale;
import java.util.Set;

/**
 * The guard of gated writes (sql_write), over the same {@link AnalysedStatement} the read path
 * uses: exactly one INSERT, UPDATE, DELETE, CREATE TABLE / INDEX / VIEW, ALTER, DROP or TRUNCATE.
 * Whatever reaches the host or the server's configuration stays refused even with writes on
 * (COPY, INTO OUTFILE, LOAD DATA, VACUUM INTO, ATTACH, SET, ALTER SYSTEM, GRANT, procedures, and
 * every function the read path refuses). It also says whether the statement is destructive (DROP,
 * TRUNCATE, UPDATE or DELETE without WHERE), which needs the caller's explicit confirmation.
 */
public final class WriteGuard {

  /** What an accepted write is. */
  public record Write(String sql, String kind, String table, boolean destructive, String why) {}

  /** Clauses that write files or run programs wherever they appear. */
  private static final Set<String> HOST_WORDS = Set.of("outfile", "dumpfile", "program");

  private WriteGuard() {}

  /** @throws SqlError {@code validation_failed} (or {@code syntax_error}) naming the rule */
  public static Write check(AnalysedStatement a) {
    if (a.problem() != null) {
      throw a.problem().toError();
    }
    for (int i = 0; i < a.tokens().size(); i++) {
      Token t = a.tokens().get(i);
      if (t.kind() == Token.Kind.WORD && HOST_WORDS.contains(t.text().toLowerCase(Locale.ROOT))) {
        throw refuse("host_reaching", t.text().toUpperCase(Locale.ROOT) + " reaches the host, the server's "
            + "configuration or other sessions; it stays refused even with writes enabled");
      }
      if (t.is("system") && i > 0 && a.tokens().get(i - 1).is("alter")) {
        throw refuse("host_reaching", "ALTER SYSTEM changes the server's configuration; it stays refused");
      }
      if (t.isName() && i + 1 < a.tokens().size() && a.tokens().get(i + 1).isSymbol('(')
          && a.dialect().functions().never(t.value())) {
        throw ReadGuard.functionRefusal(t.value(), a.dialect().functions().of(t.value(), false)).toError();
      }
    }
    for (FunctionCall f : a.functions()) {
      FunctionRules.Verdict v = a.dialect().functions().of(f.name(), false);
      if (!v.allowed()) {
        throw ReadGuard.functionRefusal(f.name(), v).toError();
      }
    }
    String kind = a.kind().name().toLowerCase(Locale.ROOT);
    AnalysedStatement.Write w = a.write();
    switch (a.kind()) {
      case INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, TRUNCATE:
        if (w != null) {
          return new Write(a.text(), kind, w.table(), w.everyRow(), w.everyRow() ? destructiveWhy(kind) : null);
        }
        break;
      case QUERY, EXPLAIN, SHOW, DESCRIBE, PRAGMA:
        throw refuse("not_a_write", kind.toUpperCase(Locale.ROOT) + " is not a write sql_write takes (INSERT, "
            + "UPDATE, DELETE, CREATE, ALTER, DROP, TRUNCATE); reads go to sql_execution");
      default:
        break;
    }
    Refusal r = StatementKinds.refusal(a.firstWord());
    throw refuse(a.firstWord().isEmpty() ? "not_a_write" : "host_reaching", (a.firstWord().isEmpty()
        ? "the statement" : a.firstWord().toUpperCase(Locale.ROOT)) + " is not a write sql_write takes (INSERT, "
        + "UPDATE, DELETE, CREATE TABLE/INDEX/VIEW, ALTER, DROP, TRUNCATE): " + r.message());
  }

  private static String destructiveWhy(String kind) {
    return switch (kind) {
      case "update" -> "UPDATE without WHERE changes every row";
      case "delete" -> "DELETE without WHERE removes every row";
      case "truncate" -> "TRUNCATE removes every row";
      default -> "DROP destroys the object and everything in it";
    };
  }

  private static SqlError refuse(String rule, String message) {
    return new SqlError(ErrorType.VALIDATION_FAILED, message).with("rule", rule);
  }
}
