package dev.sluice.testing;

import dev.sluice.demo.DemoDataset;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A gateway set up so that every tool can succeed and fail in each of its ways, and the tour of
 * calls that makes it so (run by loadtest/mcp-clients/sdk-client-tour.mjs through the official
 * TypeScript SDK, and by the Inspector CLI).
 *
 * <p>The setting: the demo shop in SQLite as {@code demo} (its semantic layer, one approved query
 * published as the tool {@code orders_by_status}), the same file as {@code slow} with a 1 s
 * deadline, and {@code down}, a PostgreSQL nobody listens for. Over HTTP the main session is the
 * principal {@code writer} (writes on demo); {@code reader} may not see customers.email and
 * {@code throttled} may run one statement a minute. stdio serves the default principal, which
 * never writes, so sql_write succeeds over HTTP only.
 *
 * <p>Error expectations name the error_type and, for our own messages, a stable phrase; the read-only
 * guard's wording is left out (it is being reworked).
 */
public final class ToolTour {

  public static final String WRITER = "writer-token-0123456789";
  public static final String READER = "reader-token-0123456789";
  public static final String THROTTLED = "throttled-token-0123456789";

  /** A statement that runs for minutes unless its deadline or a cancel stops it. */
  static final String RUNAWAY = "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 2000000000) "
      + "SELECT count(*) FROM s";

  public final Path dir;
  public final Path config;

  private ToolTour(Path dir) {
    this.dir = dir;
    this.config = dir.resolve("sluice.yaml");
  }

  /** A tour of calls of its own (see {@link Calls}) whose files go to {@code dir}, against a gateway the caller started. */
  public static ToolTour in(Path dir) {
    return new ToolTour(dir);
  }

  /** A fresh directory with the database, the semantic layer, the approved query and the config. */
  public static ToolTour prepare() throws Exception {
    ToolTour t = new ToolTour(Files.createTempDirectory("sluice-tour"));
    Path state = t.dir.resolve("state");
    DemoDataset.writeSqlite(t.dir.resolve("shop.sqlite"));
    Path layer = Files.createDirectories(state.resolve("semantic/demo"));
    try (Stream<Path> sources = Files.list(NodeClients.projectRoot().resolve("conf/semantic/demo"))) {
      for (Path s : sources.toList()) {
        Files.copy(s, layer.resolve(s.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.writeString(Files.createDirectories(state.resolve("approved")).resolve("orders_by_status.sql"), """
        /*
        name: Orders with a status
        description: Orders in one status above a minimum total
        connection: demo
        parameters:
          status: {type: string, description: "pending, paid, shipped, delivered, cancelled or refunded"}
          min_total: {type: number, default: 0, description: "Smallest order total"}
        limit: {default: 5, max: 20}
        as_tool: true
        */
        SELECT id, status, total FROM orders WHERE status = #{status} AND total >= #{min_total} ORDER BY id
        """);
    Files.writeString(t.config, """
        server:
          port: 0
        state:
          dir: %1$s/state
        connections:
          - id: demo
            driver: sqlite
            path: %1$s/shop.sqlite
          - id: slow
            driver: sqlite
            path: %1$s/shop.sqlite
            query_timeout_ms: 1000
          - id: down
            driver: postgres
            url: postgresql://nobody@127.0.0.1:1/none
        principals:
          - name: writer
            tokens: ["%2$s"]
            writes: [demo]
          - name: reader
            tokens: ["%3$s"]
            tables:
              demo:
                deny_columns: [customers.email]
          - name: throttled
            tokens: ["%4$s"]
            limits: {queries_per_minute: 1}
        """.formatted(t.dir, WRITER, READER, THROTTLED));
    return t;
  }

  /** The tour over {@code http} (all sessions) or {@code stdio} (the default principal). */
  public JsonArray calls(String transport) {
    boolean http = transport.equals("http");
    Calls c = new Calls();
    // the catalog scan runs at start: the first call waits for it
    c.ok("entity_details", o("connectionId", "demo").put("entities", a(o("table", "orders"))),
        "orders (table", "FK customer_id -> main.customers.id").put("retryWhile", "not_ready");
    c.error("entity_details", o("connectionId", "demo").put("entities", a(o("table", "ordrs"))), "table_not_found",
        "Did you mean orders?");
    // the start-up scan of the unreachable connection may still be trying when demo's is done: the
    // answer asked for is the one after it gave up
    c.error("entity_details", o("connectionId", "down").put("entities", a(o("table", "orders"))), "not_ready",
        "scan down").put("retryWhileText", "is being scanned");
    c.error("entity_details", o("connectionId", "nope").put("entities", a(o("table", "orders"))), "invalid_argument",
        "unknown connectionId 'nope'");

    c.ok("connection_list", o(), "demo (sqlite, up", "down (postgres, down");
    c.error("connection_list", o("verbose", true), "invalid_argument", "verbose");

    c.ok("discover_data", o("query", "orders shipped per country"), "orders.shipping_country [demo]");
    c.error("discover_data", o("query", "orders").put("connectionId", "nope"), "invalid_argument", "nope");
    c.error("discover_data", o("query", "orders").put("kinds", a("tables")), "invalid_argument", "/kinds");

    c.ok("dictionary_search", o("values", a("Germany")), "demo:customers.country = 'Germany'");
    c.error("dictionary_search", o("values", a()), "invalid_argument", "/values");

    c.ok("sql_dialect_notes", o("connectionId", "demo"), "SQLite dialect notes");
    c.error("sql_dialect_notes", o("connectionId", "nope"), "invalid_argument", "connection_list");

    c.ok("sql_execution", o("connectionId", "demo").put("sql", "SELECT status, count(*) AS n FROM orders GROUP BY status "
        + "ORDER BY status"), "status\tn", "delivered\t");
    c.error("sql_execution", sql("demo", "SELECT * FROM orders ORDER BY"), "syntax_error");
    c.error("sql_execution", sql("demo", "SELECT * FROM ordrs"), "table_not_found", "no such table: ordrs");
    c.error("sql_execution", sql("demo", "SELECT nme FROM customers"), "column_not_found", "\"correction\":\"name\"");
    c.error("sql_execution", sql("demo", "DELETE FROM orders"), "validation_failed");
    c.error("sql_execution", sql("demo", "SELECT 1 UNION SELECT 1, 2"), "query_error", "same number of result columns");
    c.error("sql_execution", sql("slow", RUNAWAY), "timeout", "query exceeded 1s");
    c.error("sql_execution", sql("down", "SELECT 1"), "connection_error", "cannot reach the database of 'down'");
    c.error("sql_execution", sql("demo", "SELECT 1").put("maxRows", 0), "invalid_argument", "/maxRows");
    c.background("runaway", "sql_execution", sql("demo", RUNAWAY));
    c.ok("query_cancel", o("queryId", "${runaway.queryId}"), "cancellation sent for query ${runaway.queryId}");
    c.awaited("runaway", "cancelled", "${runaway.queryId} was cancelled");
    c.error("query_cancel", o("queryId", "no-such-query"), "not_found", "no running query with id no-such-query");
    if (http) {
      c.error("sql_execution", sql("demo", "SELECT email FROM customers"), "permission_denied", "customers.email")
          .put("session", "reader");
      c.ok("sql_execution", sql("demo", "SELECT 1 AS one"), "one").put("session", "throttled");
      c.error("sql_execution", sql("demo", "SELECT 2 AS two"), "rate_limit_exceeded", "retryAfterMs")
          .put("session", "throttled");
    }

    c.ok("sql_explain", sql("demo", "SELECT * FROM orders WHERE id = 1"), "orders");
    c.error("sql_explain", sql("demo", "SELECT * FROM ordrs"), "table_not_found", "ordrs");
    c.error("sql_explain", sql("demo", "DELETE FROM orders"), "validation_failed");
    c.error("sql_explain", o("connectionId", "demo"), "invalid_argument", "required property");

    c.ok("sql_compare", o("connectionId", "demo").put("baselineSql", "SELECT count(*) FROM orders")
        .put("candidateSql", "SELECT count(id) FROM orders"), "EQUAL results");
    c.error("sql_compare", o("connectionId", "demo").put("baselineSql", "SELECT count(*) FROM orders")
        .put("candidateSql", "SELECT count(*) FROM ordrs"), "table_not_found", "\"side\":\"candidate\"");
    c.error("sql_compare", o("connectionId", "demo").put("baselineSql", "SELECT 1")
        .put("candidateSql", "DELETE FROM orders"), "validation_failed");
    c.error("sql_compare", o("connectionId", "demo").put("baselineSql", "SELECT 1").put("candidateSql", "SELECT 1")
        .put("protocol", "best-of-3"), "invalid_argument", "/protocol");

    c.ok("memory_ingest", o("connectionId", "demo").put("content", "# Tour refunds\nRefunds show up in payments with "
        + "status refunded. #policy\n"), "queued").put("save", o("runId", "runId"));
    c.ok("memory_ingest_status", o("runId", "${runId}"), "completed", "page tour-refunds")
        .put("until", o("field", "status").put("in", a("completed", "failed")));
    c.error("memory_ingest", o("content", "   "), "invalid_argument", "content is empty");
    c.error("memory_ingest_status", o("runId", "no-such-run"), "not_found", "no memory_ingest run 'no-such-run'");

    c.ok("wiki_search", o("query", "refunds payments").put("connectionId", "demo"), "tour-refunds: Tour refunds");
    c.error("wiki_search", o("query", "refunds").put("limit", 0), "invalid_argument", "/limit");
    c.ok("wiki_read", o("key", "tour-refunds"), "# Tour refunds", "status refunded");
    c.error("wiki_read", o("key", "tour-refund"), "not_found", "did you mean tour-refunds?");
    c.error("wiki_read", o("key", "../etc/passwd"), "invalid_argument", "is not a page key");

    c.ok("approved_query_list", o(), "orders_by_status (demo): Orders in one status");
    c.error("approved_query_list", o("connectionId", "nope"), "invalid_argument", "nope");
    c.ok("execute_approved_query", o("queryId", "orders_by_status").put("parameters", o("status", "paid")),
        "id\tstatus\ttotal", "\tpaid\t");
    c.error("execute_approved_query", o("queryId", "orders_by_stat"), "not_found", "approved_query_list");
    c.error("execute_approved_query", o("queryId", "orders_by_status").put("parameters", o("status", 5)),
        "invalid_argument", "status");
    c.ok("orders_by_status", o("status", "shipped").put("min_total", 100).put("limit", 2), "\tshipped\t");
    c.error("orders_by_status", o("min_total", 100), "invalid_argument", "required property");

    c.ok("sl_read_source", o("connectionId", "demo").put("source", "orders"), "orders.revenue");
    c.error("sl_read_source", o("connectionId", "demo").put("source", "ordrs"), "not_found", "\"orders\"");
    c.ok("sl_query", o("connectionId", "demo").put("measures", a("orders.revenue"))
        .put("dimensions", a("customers.country")).put("limit", 3), "SQL: SELECT");
    c.error("sl_query", o("connectionId", "demo").put("measures", a("orders.revenu")), "invalid_argument",
        "did you mean orders.revenue?");
    c.error("sl_query", o("connectionId", "demo").put("measures", a("orders.revenue"))
        .put("dimensions", a("products.category")), "invalid_argument", "one-to-many");
    c.error("sl_query", o("connectionId", "slow").put("measures", a("orders.revenue")), "not_found",
        "has no semantic layer");

    if (http) {
      c.ok("sql_write", sql("demo", "UPDATE payments SET status = status WHERE id = 1"), "1 rows affected");
      c.error("sql_write", sql("demo", "DELETE FROM payments"), "confirmation_required", "confirm_destructive");
      c.error("sql_write", sql("demo", "SELECT 1"), "validation_failed");
    }
    c.error("sql_write", sql("slow", "UPDATE payments SET status = status WHERE id = 1"), "permission_denied",
        "writes are not enabled for principal '" + (http ? "writer" : "default") + "' on 'slow'");
    return c.all;
  }

  /**
   * What the Inspector CLI calls (one process per call, over HTTP as the writer): every tool once,
   * on its success path where that needs no earlier call's output, else on an error it answers in
   * band; and one SQL error. Run after the catalog scan has finished.
   */
  public JsonArray inspectorCalls() {
    Calls c = new Calls();
    c.ok("connection_list", o());
    c.ok("discover_data", o("query", "orders shipped per country"));
    c.ok("entity_details", o("connectionId", "demo").put("entities", a(o("table", "orders"))));
    c.ok("dictionary_search", o("values", a("Germany")));
    c.ok("sql_dialect_notes", o("connectionId", "demo"));
    c.ok("sql_execution", sql("demo", "SELECT count(*) AS n FROM orders"));
    c.error("sql_execution", sql("demo", "SELECT * FROM ordrs"), "table_not_found");
    c.ok("sql_explain", sql("demo", "SELECT * FROM orders WHERE id = 1"));
    c.ok("sql_compare", o("connectionId", "demo").put("baselineSql", "SELECT count(*) FROM orders")
        .put("candidateSql", "SELECT count(id) FROM orders"));
    c.error("query_cancel", o("queryId", "no-such-query"), "not_found");
    c.ok("memory_ingest", o("content", "# Inspector note\nLeft by the Inspector CLI check.\n"));
    c.error("memory_ingest_status", o("runId", "no-such-run"), "not_found");
    c.ok("wiki_search", o("query", "inspector"));
    c.error("wiki_read", o("key", "no-such-page"), "not_found");
    c.ok("approved_query_list", o());
    c.ok("execute_approved_query", o("queryId", "orders_by_status").put("parameters", o("status", "paid")));
    c.ok("orders_by_status", o("status", "shipped"));
    c.ok("sl_read_source", o("connectionId", "demo").put("source", "orders"));
    c.ok("sl_query", o("connectionId", "demo").put("measures", a("orders.revenue")));
    c.ok("sql_write", sql("demo", "UPDATE payments SET status = status WHERE id = 2"));
    return c.all;
  }

  private static JsonObject sql(String connectionId, String sql) {
    return o("connectionId", connectionId).put("sql", sql);
  }

  private static JsonObject o() {
    return new JsonObject();
  }

  private static JsonObject o(String key, Object value) {
    return new JsonObject().put(key, value);
  }

  private static JsonArray a(Object... values) {
    return new JsonArray(java.util.List.of(values));
  }

  /** The calls of a tour, in order. */
  public static final class Calls {
    public final JsonArray all = new JsonArray();

    public JsonObject ok(String tool, JsonObject args, String... text) {
      return add(new JsonObject().put("tool", tool).put("args", args).put("expect", "ok")
          .put("text", new JsonArray(java.util.List.of(text))));
    }

    public JsonObject error(String tool, JsonObject args, String errorType, String... text) {
      return add(new JsonObject().put("tool", tool).put("args", args).put("expect", errorType)
          .put("text", new JsonArray(java.util.List.of(text))));
    }

    void background(String name, String tool, JsonObject args) {
      add(new JsonObject().put("background", name).put("tool", tool).put("args", args));
    }

    void awaited(String name, String errorType, String... text) {
      add(new JsonObject().put("await", name).put("label", name + " (after query_cancel)").put("expect", errorType)
          .put("text", new JsonArray(java.util.List.of(text))));
    }

    private JsonObject add(JsonObject call) {
      all.add(call);
      return call;
    }
  }

  /** The stdio transport of a tour: the built fat jar run as {@code sluice stdio} on this tour's config. */
  public JsonObject stdioTransport() {
    List<String> cmd = GatewayJar.command("stdio", "--config", config.toString());
    return new JsonObject().put("kind", "stdio").put("command", cmd.get(0))
        .put("args", new JsonArray(new java.util.ArrayList<Object>(cmd.subList(1, cmd.size()))));
  }

  /**
   * Runs a tour script of loadtest/mcp-clients ({@code sdk-client-tour.mjs}, {@code sdk2-client-tour.mjs})
   * over {@code transport} and asserts every call was judged as expected.
   */
  public JsonObject run(String script, JsonObject transport, JsonArray calls) throws Exception {
    Path file = dir.resolve(script.replace(".mjs", "") + "-" + transport.getString("kind") + ".json");
    Files.writeString(file, new JsonObject().put("transport", transport).put("calls", calls).encodePrettily());
    NodeClients.Run r = NodeClients.run(360, script, file.toString());
    JsonObject summary = json(r.output());
    java.util.List<String> failed = new java.util.ArrayList<>();
    summary.getJsonArray("calls", new JsonArray()).forEach(o -> {
      JsonObject c = (JsonObject) o;
      if (!c.getBoolean("ok")) {
        failed.add(c.getString("label") + " [" + c.getString("session") + "] expected " + c.getString("expect")
            + ": " + c.getJsonArray("problems").encode());
      }
    });
    org.junit.jupiter.api.Assertions.assertTrue(failed.isEmpty(), String.join("\n", failed));
    org.junit.jupiter.api.Assertions.assertEquals(0, r.exit(), r.output());
    return summary;
  }

  /** Each listed tool has a passing success call (but those in {@code noSuccess}) and an error call; prints what was covered. */
  public static void assertEveryToolSucceeded(String client, JsonObject summary, java.util.Set<String> noSuccess) {
    java.util.Map<String, java.util.Set<String>> outcomes = new java.util.TreeMap<>();
    summary.getJsonArray("calls").forEach(o -> {
      JsonObject c = (JsonObject) o;
      outcomes.computeIfAbsent(c.getString("tool"), k -> new java.util.TreeSet<>()).add(c.getString("got"));
    });
    StringBuilder table = new StringBuilder(client + " over " + summary.getString("transport") + ": "
        + summary.getJsonArray("calls").size() + " calls, every result in band\n");
    outcomes.forEach((tool, got) -> table.append("  ").append(tool).append(": ").append(got).append('\n'));
    System.out.print(table);
    for (Object t : summary.getJsonArray("tools")) {
      String tool = (String) t;
      java.util.Set<String> got = outcomes.getOrDefault(tool, java.util.Set.of());
      org.junit.jupiter.api.Assertions.assertTrue(noSuccess.contains(tool) || got.contains("ok"),
          tool + " has no success call:\n" + table);
      org.junit.jupiter.api.Assertions.assertTrue(got.stream().anyMatch(g -> !g.equals("ok")),
          tool + " has no error call:\n" + table);
    }
  }

  /** The JSON summary a node script printed (after whatever else it wrote). */
  public static JsonObject json(String output) {
    int start = output.indexOf("{\n");
    return new JsonObject(output.substring(start < 0 ? output.indexOf('{') : start, output.lastIndexOf('}') + 1));
  }
}
