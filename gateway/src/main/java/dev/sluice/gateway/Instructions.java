package dev.sluice.gateway;

/** The initialize {@code instructions}: how an agent should use this gateway's tools. */
final class Instructions {

  static final String TEXT = String.join("\n",
      "Sluice gives read-only SQL access to the databases listed by connection_list.",
      "Start with discover_data {query} in the user's own words: it ranks wiki pages, semantic-layer",
      "measures/dimensions (sl_*), tables and columns by words and by meaning. Never guess a table name.",
      "Prefer the semantic layer when a ref of kind sl_measure, sl_dimension or sl_source answers the",
      "question (revenue, counts, averages, breakdowns, trends): sl_read_source {source} shows its agreed",
      "definitions, then sl_query computes it - joins, fan-out and time zones handled, relative ranges",
      "such as {field: 'orders.ordered_at', op: 'during', value: 'last 30 days'} allowed. Example:",
      "discover_data 'revenue per country last month' -> sl_measure orders.revenue -> sl_read_source",
      "orders (joins customers, which has country) -> sl_query {measures:",
      "['orders.revenue'], dimensions: ['customers.country'], filters: [{field: 'orders.ordered_at',",
      "op: 'during', value: 'previous month'}]}.",
      "Write SQL only when no semantic field fits (raw rows, a column the layer lacks): entity_details",
      "(columns, keys, comments) -> dictionary_search for literal values (a miss is not proof of absence)",
      "-> sql_dialect_notes for the engine -> sql_execution (one read-only statement).",
      "Every query has a deadline and a row cap; truncated: true means more rows exist.",
      "Errors come back in-band with error_type and a hint; fix the call and retry.");

  private Instructions() {}
}
