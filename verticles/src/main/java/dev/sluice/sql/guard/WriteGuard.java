package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;

/**
 * The guard of gated writes (sql_write): exactly one INSERT, UPDATE, DELETE, CREATE TABLE / INDEX
 * / VIEW, ALTER, DROP or TRUNCATE. Whatever reaches the host or the server's configuration stays
 * refused even with writes on (COPY, INTO OUTFILE, LOAD DATA, VACUUM INTO, ATTACH, SET, ALTER
 * SYSTEM, GRANT, functions and procedures, file and lock functions). It also says whether the
 * statement is destructive (DROP, TRUNCATE, UPDATE or DELETE without WHERE), which needs the
 * caller's explicit confirmation.
 */
public final class WriteGuard {

  /** What an accepted write is. */
  public record Write(String sql, String kind, String table, boolean destructive, String why) {}

  /** Statements that reach beyond the data, refused by their first word. */
  private static final Set<String> HOST_STATEMENTS = Set.of("copy", "load", "vacuum", "attach", "detach", "pragma",
      "grant", "revoke", "call", "do", "execute", "prepare", "deallocate", "lock", "unlock", "handler", "install",
      "uninstall", "reindex", "cluster", "checkpoint", "listen", "notify", "set", "reset", "flush", "kill",
      "shutdown", "purge", "change", "start", "stop", "begin", "commit", "rollback", "savepoint", "release");
  /** Clauses that write files wherever they appear. */
  private static final Set<String> HOST_WORDS = Set.of("outfile", "dumpfile", "program");

  private WriteGuard() {}

  public static Write check(Dialect dialect, String sql) {
    if (sql == null || sql.isBlank()) {
      throw refuse("empty", "the statement is empty");
    }
    SqlTokens t = SqlTokens.scan(sql, dialect);
    if (t.unterminated || t.executableComment) {
      throw refuse("unparseable", "a quote or comment is not closed, or a MySQL executable comment is present");
    }
    List<SqlTokens.Token> tk = t.tokens;
    int end = tk.size();
    while (end > 0 && tk.get(end - 1).type() == SqlTokens.Type.SYMBOL && tk.get(end - 1).text().equals(";")) {
      end--;
    }
    if (end == 0) {
      throw refuse("empty", "the statement is empty");
    }
    String firstWord = tk.get(0).text().toLowerCase(Locale.ROOT);
    if (HOST_STATEMENTS.contains(firstWord)) {
      throw refuse("host_reaching", firstWord.toUpperCase(Locale.ROOT) + " statements reach the host, the server's "
          + "configuration, transactions or other sessions; they stay refused even with writes enabled");
    }
    for (int i = 0; i < end; i++) {
      SqlTokens.Token tok = tk.get(i);
      if (tok.type() == SqlTokens.Type.SYMBOL && tok.text().equals(";")) {
        throw refuse("multiple_statements", "only one statement per call");
      }
      String w = tok.text().toLowerCase(Locale.ROOT);
      if (tok.type() == SqlTokens.Type.WORD && HOST_WORDS.contains(w)) {
        throw refuse("host_reaching", tok.text().toUpperCase(Locale.ROOT) + " reaches the host, the server's "
            + "configuration or other sessions; it stays refused even with writes enabled");
      }
      boolean call = i + 1 < end && tk.get(i + 1).text().equals("(");
      if (call && ForbiddenFunctions.why(dialect, w) != null) {
        throw refuse("forbidden_function", "function " + tok.text() + "() " + ForbiddenFunctions.why(dialect, w));
      }
      if (tok.type() == SqlTokens.Type.WORD && w.equals("system") && i > 0 && tk.get(i - 1).is("alter")) {
        throw refuse("host_reaching", "ALTER SYSTEM changes the server's configuration; it stays refused");
      }
    }
    String cleaned = sql.substring(tk.get(0).start(), tk.get(end - 1).end());
    Statement st;
    try {
      st = SqlParsing.statement(dialect, cleaned);
    } catch (Exception | Error e) {
      throw new SqlError(ErrorType.SYNTAX_ERROR, "the SQL parser could not read the statement: "
          + String.valueOf(e.getMessage()).split("\n")[0]).with("rule", "unparseable");
    }
    if (st instanceof Insert ins) {
      return new Write(cleaned, "insert", ins.getTable().getFullyQualifiedName(), false, null);
    }
    if (st instanceof Update up) {
      boolean all = up.getWhere() == null;
      return new Write(cleaned, "update", up.getTable().getFullyQualifiedName(), all,
          all ? "UPDATE without WHERE changes every row" : null);
    }
    if (st instanceof Delete del) {
      boolean all = del.getWhere() == null;
      return new Write(cleaned, "delete", del.getTable().getFullyQualifiedName(), all,
          all ? "DELETE without WHERE removes every row" : null);
    }
    if (st instanceof Truncate tr) {
      return new Write(cleaned, "truncate", tr.getTable().getFullyQualifiedName(), true, "TRUNCATE removes every row");
    }
    if (st instanceof Drop d) {
      String type = d.getType() == null ? "object" : d.getType().toLowerCase(Locale.ROOT);
      return new Write(cleaned, "drop", d.getName().getFullyQualifiedName(), true, "DROP " + type.toUpperCase(Locale.ROOT)
          + " destroys it and everything in it");
    }
    if (st instanceof CreateTable ct) {
      return new Write(cleaned, "create", ct.getTable().getFullyQualifiedName(), false, null);
    }
    if (st instanceof CreateIndex ci) {
      return new Write(cleaned, "create", ci.getTable().getFullyQualifiedName(), false, null);
    }
    if (st instanceof CreateView cv) {
      return new Write(cleaned, "create", cv.getView().getFullyQualifiedName(), false, null);
    }
    if (st instanceof Alter a) {
      return new Write(cleaned, "alter", a.getTable().getFullyQualifiedName(), false, null);
    }
    throw refuse("not_a_write", st.getClass().getSimpleName().replace("Statement", "") + " is not a write "
        + "sql_write takes (INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, TRUNCATE); reads go to sql_execution");
  }

  private static SqlError refuse(String rule, String message) {
    return new SqlError(ErrorType.VALIDATION_FAILED, message).with("rule", rule);
  }
}
