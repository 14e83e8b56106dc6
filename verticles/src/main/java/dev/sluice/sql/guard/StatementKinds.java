package dev.sluice.sql.guard;

import dev.sluice.sql.analysis.Refusal;
import java.util.Locale;
import java.util.Map;

/** Classifies a statement by its leading keyword: read kinds pass on, everything else is refused with its family. */
final class StatementKinds {

  private record Family(String rule, String what, String hint) {}

  private static final Family WRITE = new Family("data_modifying_statement", "modifies data",
      "Only SELECT can run here.");
  private static final Family DDL = new Family("ddl_statement", "changes the schema or permissions",
      "Only SELECT can run here; schema changes are not possible through this gateway.");
  private static final Family SESSION = new Family("session_control", "controls the session or transaction",
      "Send the SELECT alone; the gateway manages sessions and read-only transactions itself.");
  private static final Family HOST = new Family("host_access", "reaches files or programs on the database host",
      "Query the table with SELECT instead; results come back in the tool result.");
  private static final Family PROCEDURE = new Family("procedure_call", "runs server-side code",
      "Inline the query as a SELECT.");
  private static final Family MAINTENANCE = new Family("maintenance", "runs a maintenance command that writes",
      "Only SELECT can run here.");

  private static final Map<String, Family> REFUSED = Map.ofEntries(
      Map.entry("insert", WRITE), Map.entry("update", WRITE), Map.entry("delete", WRITE), Map.entry("merge", WRITE),
      Map.entry("replace", WRITE), Map.entry("upsert", WRITE),
      Map.entry("create", DDL), Map.entry("alter", DDL), Map.entry("drop", DDL), Map.entry("truncate", DDL),
      Map.entry("rename", DDL), Map.entry("comment", DDL), Map.entry("grant", DDL), Map.entry("revoke", DDL),
      Map.entry("security", DDL), Map.entry("import", DDL),
      Map.entry("begin", SESSION), Map.entry("start", SESSION), Map.entry("commit", SESSION),
      Map.entry("end", SESSION), Map.entry("rollback", SESSION), Map.entry("abort", SESSION),
      Map.entry("savepoint", SESSION), Map.entry("release", SESSION), Map.entry("set", SESSION),
      Map.entry("reset", SESSION), Map.entry("use", SESSION), Map.entry("lock", SESSION),
      Map.entry("unlock", SESSION), Map.entry("discard", SESSION), Map.entry("listen", SESSION),
      Map.entry("unlisten", SESSION), Map.entry("notify", SESSION), Map.entry("flush", SESSION),
      Map.entry("kill", SESSION), Map.entry("xa", SESSION), Map.entry("purge", SESSION),
      Map.entry("copy", HOST), Map.entry("load", HOST), Map.entry("handler", HOST), Map.entry("attach", HOST),
      Map.entry("detach", HOST), Map.entry("install", HOST), Map.entry("uninstall", HOST),
      Map.entry("call", PROCEDURE), Map.entry("do", PROCEDURE), Map.entry("execute", PROCEDURE),
      Map.entry("exec", PROCEDURE), Map.entry("prepare", PROCEDURE), Map.entry("deallocate", PROCEDURE),
      Map.entry("vacuum", MAINTENANCE), Map.entry("analyze", MAINTENANCE), Map.entry("analyse", MAINTENANCE),
      Map.entry("reindex", MAINTENANCE), Map.entry("refresh", MAINTENANCE), Map.entry("cluster", MAINTENANCE),
      Map.entry("checkpoint", MAINTENANCE), Map.entry("optimize", MAINTENANCE), Map.entry("repair", MAINTENANCE));

  private StatementKinds() {}

  /** Why a statement led by {@code word} (lower case) may not run as a read. */
  static Refusal refusal(String word) {
    Family f = REFUSED.get(word);
    String upper = word.isEmpty() ? "the statement" : word.toUpperCase(Locale.ROOT);
    if (word.isEmpty()) {
      return Refusal.of("not_read_only", "the statement does not start with a keyword", "Send one SELECT statement.");
    }
    if (f == null) {
      return Refusal.of("not_read_only", upper + " is not a read-only query", "Send one SELECT statement.");
    }
    return Refusal.of(f.rule(), upper + " " + f.what(), f.hint());
  }
}
