package dev.sluice.gateway;

/** The initialize {@code instructions}: how an agent should use this gateway's tools. */
final class Instructions {

  static final String TEXT = String.join("\n",
      "Sluice gives read-only SQL access to the databases listed by connection_list.",
      "Research loop: connection_list -> entity_details (columns, keys, comments of the tables you need)",
      "-> dictionary_search for literal values (a miss is not proof of absence) -> sql_dialect_notes",
      "for the engine -> sql_execution (one read-only statement). Never guess a table name.",
      "Every query has a deadline and a row cap; truncated: true means more rows exist.",
      "Errors come back in-band with error_type and a hint; fix the SQL and retry.");

  private Instructions() {}
}
