package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The built-in scenarios, with SQL written for one dialect against the demo shop tables. */
public final class ScenarioCatalog {

  private ScenarioCatalog() {}

  /** All built-in scenarios by name for {@code dialect} (sqlite, postgres or mysql). */
  public static Map<String, Scenario> forDialect(String dialect, String connectionId) {
    String d = dialect.toLowerCase(Locale.ROOT);
    Map<String, Scenario> out = new LinkedHashMap<>();
    String tiny = "SELECT count(*) AS customers FROM customers";
    String medium = "SELECT * FROM order_items ORDER BY id LIMIT 1000";
    String large = "SELECT * FROM web_events ORDER BY id LIMIT 10000";
    String explain = "SELECT c.segment, count(*) AS orders, sum(o.total) AS revenue FROM orders o "
        + "JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' GROUP BY c.segment";
    // ping touches no table: gateway vs direct on it is the pure per-call overhead of the gateway
    out.put("ping", sql("ping", connectionId, "SELECT 1 AS one", null, null, 0));
    out.put("tiny", sql("tiny", connectionId, tiny, null, null, 0));
    out.put("medium", sql("medium", connectionId, medium, 1000, null, 0));
    out.put("large", sql("large", connectionId, large, 10_000, null, 0));
    out.put("explain", new Scenario("explain", "sql_explain",
        new JsonObject().put("connectionId", connectionId).put("sql", explain), null, 0, "EXPLAIN " + explain));
    out.put("connections", new Scenario("connections", "connection_list", new JsonObject(), null, 0, null));
    // the catalog tools read the snapshot (no database round trip): the gateway's own cost
    out.put("discover", new Scenario("discover", "discover_data", new JsonObject().put("connectionId", connectionId)
        .put("query", "orders shipped per country").put("limit", 10), null, 0, null));
    out.put("details", new Scenario("details", "entity_details", new JsonObject().put("connectionId", connectionId)
        .put("entities", new JsonArray().add(new JsonObject().put("table", "orders"))
            .add(new JsonObject().put("table", "customers"))), null, 0, null));
    out.put("dictionary", new Scenario("dictionary", "dictionary_search", new JsonObject()
        .put("connectionId", connectionId).put("values", new JsonArray().add("Berlin").add("shipped")), null, 0, null));
    out.put("runaway", sql("runaway", connectionId, runaway(d), 10, "timeout", 0));
    out.put("cancel", sql("cancel", connectionId, runaway(d), 10, null, 300));
    return out;
  }

  /** A statement that cannot finish within any sane deadline. */
  static String runaway(String dialect) {
    return switch (dialect) {
      case "postgres", "postgresql" -> "SELECT count(*) FROM generate_series(1, 100000000000) g";
      case "mysql" -> "SELECT count(*) FROM web_events a, web_events b, web_events c";
      default -> "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
    };
  }

  private static Scenario sql(String name, String conn, String sql, Integer maxRows, String expected,
      long cancelAfterMs) {
    JsonObject args = new JsonObject().put("connectionId", conn).put("sql", sql);
    if (maxRows != null) {
      args.put("maxRows", maxRows);
    }
    boolean comparable = expected == null && cancelAfterMs == 0;
    return new Scenario(name, "sql_execution", args, expected, cancelAfterMs, comparable ? sql : null);
  }
}
