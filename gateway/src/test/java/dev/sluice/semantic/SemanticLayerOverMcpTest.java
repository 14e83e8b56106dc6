package dev.sluice.semantic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.DemoOnThreeEngines;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The shipped example semantic layer (conf/semantic/demo) on the demo in SQLite, PostgreSQL and
 * MariaDB: business questions through sl_query give the same numbers as hand-written SQL on
 * every engine; fan-out is computed correctly or refused; alias shapes are accepted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SemanticLayerOverMcpTest {

  @AutoClose
  private DemoOnThreeEngines demo;
  private TestGateway gw;
  private Path dir;

  @BeforeAll
  void start() throws Exception {
    demo = DemoOnThreeEngines.load("sl");
    dir = demo.dir;
    List<ConnectionConfig> cs = demo.connections(30_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), cs, dir);
    Path example = dev.sluice.testing.NodeClients.projectRoot().resolve("conf/semantic/demo");
    for (ConnectionConfig c : cs) {
      Path target = dir.resolve("semantic").resolve(c.id());
      Files.createDirectories(target);
      try (Stream<Path> files = Files.list(example)) {
        for (Path f : files.toList()) {
          Files.copy(f, target.resolve(f.getFileName()));
        }
      }
      OneOffScan.run(config, c.id());
    }
    gw = demo.serve(config);
  }


  private String t(String conn, String table) {
    return demo.table(conn, table);
  }

  private static String year(String conn, String col) {
    return switch (conn) {
      case "pg" -> "extract(year from " + col + ")";
      case "my" -> "YEAR(" + col + ")";
      default -> "strftime('%Y', " + col + ")";
    };
  }

  private static String month(String conn, String col) {
    return switch (conn) {
      case "pg" -> "CAST(date_trunc('month', " + col + ") AS date)";
      case "my" -> "CAST(DATE_FORMAT(" + col + ", '%Y-%m-01') AS DATE)";
      default -> "strftime('%Y-%m-01', " + col + ")";
    };
  }

  private static String shifted(String conn, String col, int minutes) {
    return switch (conn) {
      case "pg" -> "(" + col + " + INTERVAL '" + minutes + " minutes')";
      case "my" -> "DATE_ADD(" + col + ", INTERVAL " + minutes + " MINUTE)";
      default -> "datetime(" + col + ", '+" + minutes + " minutes')";
    };
  }

  private static JsonObject during(String measure, String dims, String range, String asOf) {
    return q(measure, dims).put("as_of", asOf).put("filters", new JsonArray().add(new JsonObject()
        .put("field", "orders.ordered_at").put("op", "during").put("value", range)));
  }

  /** {@code from <= col < to} as the engine compares timestamps with text (SQLite through datetime()). */
  private static String range(String conn, String col, String from, String to) {
    return conn.equals("lite")
        ? "datetime(" + col + ") >= datetime('" + from + " 00:00:00') AND datetime(" + col + ") < datetime('" + to
            + " 00:00:00')"
        : col + " >= '" + from + " 00:00:00' AND " + col + " < '" + to + " 00:00:00'";
  }

  /** A question: the sl_query, the hand-written SQL, and whether to compare the measure columns only. */
  private record Question(String what, JsonObject query, Function<String, String> sql, boolean measuresOnly) {}

  private static JsonObject q(String measures, String dims) {
    JsonObject o = new JsonObject().put("measures", new JsonArray(List.of(measures.split(","))));
    if (dims != null) {
      o.put("dimensions", new JsonArray(List.of(dims.split(","))));
    }
    return o.put("limit", 1000);
  }

  private List<Question> questions() {
    List<Question> qs = new ArrayList<>();
    qs.add(new Question("total revenue", q("orders.revenue", null), c -> "SELECT sum(total) FROM " + t(c, "orders"), false));
    qs.add(new Question("number of orders", q("orders.order_count", null), c -> "SELECT count(*) FROM " + t(c, "orders"), false));
    qs.add(new Question("revenue by order status", q("orders.revenue", "orders.status"),
        c -> "SELECT status, sum(total) FROM " + t(c, "orders") + " GROUP BY status", false));
    qs.add(new Question("revenue by customer country", q("orders.revenue", "customers.country"),
        c -> "SELECT cu.country, sum(o.total) FROM " + t(c, "orders") + " o JOIN " + t(c, "customers")
            + " cu ON cu.id = o.customer_id GROUP BY cu.country", false));
    qs.add(new Question("orders per customer segment", q("orders.order_count", "customers.segment"),
        c -> "SELECT cu.segment, count(*) FROM " + t(c, "orders") + " o JOIN " + t(c, "customers")
            + " cu ON cu.id = o.customer_id GROUP BY cu.segment", false));
    qs.add(new Question("distinct buyers", q("orders.buyers", null),
        c -> "SELECT count(DISTINCT customer_id) FROM " + t(c, "orders"), false));
    qs.add(new Question("average order value", q("orders.avg_order_value", null),
        c -> "SELECT sum(total) * 1.0 / count(*) FROM " + t(c, "orders"), false));
    qs.add(new Question("largest order", q("orders.largest_order", null), c -> "SELECT max(total) FROM " + t(c, "orders"), false));
    qs.add(new Question("customers per country", q("customers.customer_count", "customers.country"),
        c -> "SELECT country, count(*) FROM " + t(c, "customers") + " GROUP BY country", false));
    qs.add(new Question("products per category", q("products.product_count", "products.category"),
        c -> "SELECT category, count(*) FROM " + t(c, "products") + " GROUP BY category", false));
    qs.add(new Question("average list price per category", q("products.avg_list_price", "products.category"),
        c -> "SELECT category, avg(price) FROM " + t(c, "products") + " GROUP BY category", false));
    qs.add(new Question("units sold per category", q("order_items.units_sold", "products.category"),
        c -> "SELECT p.category, sum(i.quantity) FROM " + t(c, "order_items") + " i JOIN " + t(c, "products")
            + " p ON p.id = i.product_id GROUP BY p.category", false));
    qs.add(new Question("line revenue per category", q("order_items.line_revenue", "products.category"),
        c -> "SELECT p.category, sum(i.quantity * i.unit_price) FROM " + t(c, "order_items") + " i JOIN "
            + t(c, "products") + " p ON p.id = i.product_id GROUP BY p.category", false));
    qs.add(new Question("amount paid per method", q("payments.amount_paid", "payments.method"),
        c -> "SELECT method, sum(amount) FROM " + t(c, "payments") + " GROUP BY method", false));
    qs.add(new Question("payments per status", q("payments.payment_count", "payments.status"),
        c -> "SELECT status, count(*) FROM " + t(c, "payments") + " GROUP BY status", false));
    qs.add(new Question("revenue of completed orders", q("orders.revenue", null).put("segments", new JsonArray()
        .add("orders.completed")), c -> "SELECT sum(total) FROM " + t(c, "orders")
            + " WHERE status IN ('shipped', 'delivered')", false));
    qs.add(new Question("orders shipped to Germany", q("orders.order_count", null).put("filters", new JsonArray()
        .add(new JsonObject().put("field", "orders.shipping_country").put("op", "=").put("value", "Germany"))),
        c -> "SELECT count(*) FROM " + t(c, "orders") + " WHERE shipping_country = 'Germany'", false));
    qs.add(new Question("revenue of paid or shipped orders", q("orders.revenue", null).put("filters", new JsonArray()
        .add(new JsonObject().put("field", "orders.status").put("op", "in").put("value", new JsonArray().add("paid").add("shipped")))),
        c -> "SELECT sum(total) FROM " + t(c, "orders") + " WHERE status IN ('paid', 'shipped')", false));
    qs.add(new Question("books sold", q("order_items.units_sold", null).put("filters", new JsonArray()
        .add(new JsonObject().put("field", "products.category").put("op", "=").put("value", "Books"))),
        c -> "SELECT sum(i.quantity) FROM " + t(c, "order_items") + " i JOIN " + t(c, "products")
            + " p ON p.id = i.product_id WHERE p.category = 'Books'", false));
    qs.add(new Question("succeeded payments by customer country", q("payments.amount_paid", "customers.country")
        .put("segments", new JsonArray().add("payments.succeeded")),
        c -> "SELECT cu.country, sum(p.amount) FROM " + t(c, "payments") + " p JOIN " + t(c, "orders")
            + " o ON o.id = p.order_id JOIN " + t(c, "customers") + " cu ON cu.id = o.customer_id"
            + " WHERE p.status = 'succeeded' GROUP BY cu.country", false));
    qs.add(new Question("revenue per year", new JsonObject().put("measures", new JsonArray().add("orders.revenue"))
        .put("dimensions", new JsonArray().add(new JsonObject().put("dimension", "orders.ordered_at")
            .put("granularity", "year"))),
        c -> "SELECT " + year(c, "ordered_at") + ", sum(total) FROM " + t(c, "orders") + " GROUP BY 1", true));
    qs.add(new Question("customers signed up per year", new JsonObject().put("measures", new JsonArray()
        .add("customers.customer_count")).put("dimensions", new JsonArray().add(new JsonObject()
            .put("dimension", "customers.created_at").put("granularity", "year"))),
        c -> "SELECT " + year(c, "created_at") + ", count(*) FROM " + t(c, "customers") + " GROUP BY 1", true));
    // filters written as restricted expressions: parsed, checked against the layer, values bound
    qs.add(new Question("revenue of paid or shipped orders of 100 EUR or more since 2024 (expression)",
        q("orders.revenue", null).put("filters", new JsonArray()
            .add("orders.status IN ('paid', 'shipped') AND orders.total >= 100 AND orders.ordered_at >= '2024-01-01'")),
        c -> "SELECT sum(total) FROM " + t(c, "orders") + " WHERE status IN ('paid', 'shipped') AND total >= 100 AND "
            + (c.equals("lite") ? "datetime(ordered_at) >= datetime('2024-01-01')" : "ordered_at >= '2024-01-01'"), false));
    qs.add(new Question("cancelled or refunded orders per country (OR expression + structured filter)",
        q("orders.order_count", "customers.country").put("filters", new JsonArray()
            .add("(orders.status = 'cancelled' OR orders.status = 'refunded')")
            .add(new JsonObject().put("field", "customers.segment").put("op", "!=").put("value", "enterprise"))),
        c -> "SELECT cu.country, count(*) FROM " + t(c, "orders") + " o JOIN " + t(c, "customers")
            + " cu ON cu.id = o.customer_id WHERE o.status IN ('cancelled', 'refunded') AND cu.segment <> 'enterprise'"
            + " GROUP BY cu.country", false));
    qs.add(new Question("units of mid-priced products outside Books (BETWEEN, NOT, <>)",
        q("order_items.units_sold", null).put("filters", new JsonArray()
            .add("products.price BETWEEN 20 AND 80.5 AND NOT products.category = 'Books'")),
        c -> "SELECT sum(i.quantity) FROM " + t(c, "order_items") + " i JOIN " + t(c, "products")
            + " p ON p.id = i.product_id WHERE p.price BETWEEN 20 AND 80.5 AND p.category <> 'Books'", false));
    // a fixed offset shifts orders near midnight at month ends into the next month on every engine
    qs.add(new Question("orders per month at +05:30", new JsonObject().put("measures", new JsonArray()
        .add("orders.order_count")).put("dimensions", new JsonArray().add(new JsonObject()
            .put("dimension", "orders.ordered_at").put("granularity", "month"))).put("timezone", "+05:30"),
        c -> "SELECT " + month(c, shifted(c, "ordered_at", 330)) + ", count(*) FROM " + t(c, "orders") + " GROUP BY 1",
        false));
    // relative time ranges, counted from as_of (the demo's data ends in 2025), bounds as half-open ranges
    qs.add(new Question("orders in the last 30 days (as of 15 June 2025)", during("orders.order_count", null,
        "last 30 days", "2025-06-15 12:00:00"),
        c -> "SELECT count(*) FROM " + t(c, "orders") + " WHERE " + range(c, "ordered_at", "2025-05-17", "2025-06-16"),
        false));
    qs.add(new Question("revenue in the previous month (as of 15 June 2025)", during("orders.revenue", null,
        "previous month", "2025-06-15"),
        c -> "SELECT sum(total) FROM " + t(c, "orders") + " WHERE " + range(c, "ordered_at", "2025-05-01", "2025-06-01"),
        false));
    qs.add(new Question("orders by status last week (as of Sunday 15 June 2025)", during("orders.order_count",
        "orders.status", "last week", "2025-06-15T23:00:00Z"),
        c -> "SELECT status, count(*) FROM " + t(c, "orders") + " WHERE " + range(c, "ordered_at", "2025-06-02",
            "2025-06-09") + " GROUP BY status", false));
    qs.add(new Question("orders per month this quarter (as of 20 August 2025)", during("orders.order_count", null,
        "this quarter", "2025-08-20").put("dimensions", new JsonArray().add(new JsonObject()
            .put("dimension", "orders.ordered_at").put("granularity", "month"))),
        c -> "SELECT " + month(c, "ordered_at") + ", count(*) FROM " + t(c, "orders") + " WHERE "
            + range(c, "ordered_at", "2025-07-01", "2025-10-01") + " GROUP BY 1", false));
    // fan-out: revenue and units by country, each summed over its own rows (not once per order line)
    qs.add(new Question("revenue and units sold by customer country", q("orders.revenue,order_items.units_sold",
        "customers.country"),
        c -> "SELECT r.country, r.revenue, u.units FROM (SELECT cu.country, sum(o.total) AS revenue FROM "
            + t(c, "orders") + " o JOIN " + t(c, "customers") + " cu ON cu.id = o.customer_id GROUP BY cu.country) r"
            + " JOIN (SELECT cu.country, sum(i.quantity) AS units FROM " + t(c, "order_items") + " i JOIN "
            + t(c, "orders") + " o ON o.id = i.order_id JOIN " + t(c, "customers")
            + " cu ON cu.id = o.customer_id GROUP BY cu.country) u ON u.country = r.country", false));
    return qs;
  }

  private static List<String> normalized(JsonArray rows, boolean measuresOnly, int dims) {
    List<String> out = new ArrayList<>();
    for (Object o : rows) {
      JsonArray row = (JsonArray) o;
      StringBuilder b = new StringBuilder();
      for (int i = measuresOnly ? dims : 0; i < row.size(); i++) {
        Object v = row.getValue(i);
        String s = String.valueOf(v);
        if (v instanceof Number || s.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
          s = new BigDecimal(s).setScale(2, RoundingMode.HALF_UP).toPlainString();
        }
        b.append(s).append('|');
      }
      out.add(b.toString());
    }
    out.sort(String::compareTo);
    return out;
  }

  @Test
  void businessQuestionsGiveTheSameNumbersAsHandWrittenSqlOnEveryEngine() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    List<Question> qs = questions();
    assertTrue(qs.size() >= 20, qs.size() + " questions");
    int checked = 0;
    for (String conn : List.of("lite", "pg", "my")) {
      for (Question q : qs) {
        JsonObject sl = c.callTool("sl_query", q.query().copy().put("connectionId", conn)).getJsonObject("result");
        assertFalse(sl.getBoolean("isError"), conn + " " + q.what() + ": " + sl.encode());
        JsonObject s = sl.getJsonObject("structuredContent");
        JsonObject hand = c.callTool("sql_execution", new JsonObject().put("connectionId", conn)
            .put("sql", q.sql().apply(conn)).put("maxRows", 1000)).getJsonObject("result");
        assertFalse(hand.getBoolean("isError"), conn + " " + q.what() + " (hand SQL): " + hand.encode());
        int dims = q.query().getJsonArray("dimensions", new JsonArray()).size();
        assertEquals(normalized(hand.getJsonObject("structuredContent").getJsonArray("rows"), q.measuresOnly(), dims),
            normalized(s.getJsonArray("rows"), q.measuresOnly(), dims),
            conn + " " + q.what() + "\nsl_query SQL: " + s.getString("sql"));
        checked++;
      }
    }
    System.out.println("semantic layer: " + checked + " question/engine pairs match hand-written SQL ("
        + qs.size() + " questions x 3 engines)");
  }

  @Test
  void discoverDataRanksSemanticFieldsAndABadSourceIsDisabledAndReported() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonArray refs = c.callTool("discover_data", new JsonObject().put("query", "revenue").put("connectionId", "lite")
        .put("kinds", new JsonArray().add("sl_measure").add("sl_source").add("sl_dimension")))
        .getJsonObject("result").getJsonObject("structuredContent").getJsonArray("refs");
    assertEquals("orders.revenue", refs.getJsonObject(0).getString("id"), refs.encode());
    assertEquals("sl_measure", refs.getJsonObject(0).getString("kind"));
    assertEquals("Sum of order totals", refs.getJsonObject(0).getString("summary"));

    Files.writeString(dir.resolve("semantic/lite/broken.yaml"), """
        name: broken
        table: orders
        dimensions:
          - {name: state, column: stauts}
        """);
    JsonObject missing = McpHttpClient.errorBody(c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite")
        .put("source", "broken")).getJsonObject("result"));
    assertEquals("not_found", missing.getString("error_type"));
    assertTrue(missing.getJsonArray("problems").encode().contains("no column 'stauts' in orders; closest: status"),
        missing.encode());
    assertFalse(c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite").put("source", "orders"))
        .getJsonObject("result").getBoolean("isError"), "the other sources stay usable");
    Files.delete(dir.resolve("semantic/lite/broken.yaml"));
  }

  @Test
  void aSourceDefinitionIngestedThroughMemoryIngestIsQueryable() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    String yaml = """
        name: web_events
        table: web_events
        description: Web shop clickstream
        dimensions:
          - {name: event_type, column: event_type, type: string}
        measures:
          - {name: event_count, agg: count}
        """;
    String runId = c.callTool("memory_ingest", new JsonObject().put("content", yaml).put("connectionId", "lite"))
        .getJsonObject("result").getJsonObject("structuredContent").getString("runId");
    JsonObject status = null;
    for (int i = 0; i < 200; i++) {
      status = c.callTool("memory_ingest_status", new JsonObject().put("runId", runId)).getJsonObject("result")
          .getJsonObject("structuredContent");
      if (!status.getString("status").equals("queued") && !status.getString("status").equals("running")) {
        break;
      }
      Thread.sleep(20);
    }
    assertEquals("completed", status.getString("status"), status.encode());
    assertEquals(new JsonObject().put("key", "web_events").put("kind", "sl_source").put("action", "created"),
        status.getJsonArray("pages").getJsonObject(0));
    JsonObject r = c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
        .put("measures", new JsonArray().add("web_events.event_count")).put("dimensions", new JsonArray()
            .add("web_events.event_type"))).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    assertEquals(5, r.getJsonObject("structuredContent").getJsonArray("rows").size(), r.encode());
    Files.delete(dir.resolve("semantic/lite/web_events.yaml"));
  }

  @Test
  void fanOutTrapsAreRefusedAndAliasesAndSuggestionsWork() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject trap = McpHttpClient.errorBody(c.callTool("sl_query", new JsonObject().put("connectionId", "pg")
        .put("measures", new JsonArray().add("orders.revenue")).put("dimensions", new JsonArray().add("products.category")))
        .getJsonObject("result"));
    assertEquals("fan_out", trap.getString("rule"), trap.encode());
    assertTrue(trap.getString("message").contains("one-to-many"), trap.getString("message"));

    for (Object orderBy : List.of(new JsonObject().put("id", "orders.revenue").put("desc", true),
        "orders.revenue desc", new JsonObject().put("field", "orders.revenue").put("direction", "desc"))) {
      JsonObject r = c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
          .put("measures", new JsonArray().add("orders.revenue"))
          .put("dimensions", new JsonArray().add(new JsonObject().put("dimension", "orders.ordered_at")
              .put("granularity", "month")))
          .put("order_by", new JsonArray().add(orderBy)).put("limit", 3)).getJsonObject("result");
      assertFalse(r.getBoolean("isError"), r.encode());
      JsonArray rows = r.getJsonObject("structuredContent").getJsonArray("rows");
      assertEquals(3, rows.size());
      assertTrue(new BigDecimal(String.valueOf(rows.getJsonArray(0).getValue(1)))
          .compareTo(new BigDecimal(String.valueOf(rows.getJsonArray(1).getValue(1)))) >= 0, "descending");
    }
    JsonObject typo = McpHttpClient.errorBody(c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
        .put("measures", new JsonArray().add("orders.revenu"))).getJsonObject("result"));
    assertTrue(typo.getString("message").contains("did you mean orders.revenue"), typo.encode());
    JsonObject source = c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite").put("source", "orders"))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertTrue(source.getJsonArray("measures").encode().contains("orders.revenue"));
    assertTrue(source.getJsonArray("joins").encode().contains("customers"));
  }

  @Test
  void filterExpressionsBindTheirValuesAndRefuseAnythingButComparisons() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    for (String conn : List.of("lite", "pg", "my")) {
      // a quote inside the literal stays data: no row has that status, and the table is intact
      JsonObject injected = sl(c, conn, "orders.status = 'x'' OR 1=1 --'");
      assertFalse(injected.getBoolean("isError"), injected.encode());
      JsonObject s = injected.getJsonObject("structuredContent");
      assertEquals("0", String.valueOf(s.getJsonArray("rows").getJsonArray(0).getValue(0)), s.encode());
      assertEquals("x' OR 1=1 --", s.getJsonObject("parameters").getString("f0_0"), s.encode());
      assertFalse(s.getString("sql").contains("1=1"), s.getString("sql"));
    }
    String[][] refused = {
        {"lower(orders.status) = 'paid'", "one side must be a field"},
        {"orders.status = (SELECT max(status) FROM orders)", "is not a literal value"},
        {"orders.total > orders.order_count", "is not a literal value"},
        {"orders.status = 'paid' OR customers.country = 'Germany'", "must stay within one source"},
        {"orders.stauts = 'paid'", "did you mean orders.status"},
        {"orders.status = 'paid'; DROP TABLE orders", "cannot read filter expression"},
        {"orders.status ~ 'p.*'", "is not allowed"},
        {"EXISTS (SELECT 1 FROM orders)", "is not allowed"},
    };
    for (String[] r : refused) {
      JsonObject res = sl(c, "lite", r[0]);
      assertTrue(res.getBoolean("isError"), r[0] + " -> " + res.encode());
      JsonObject err = McpHttpClient.errorBody(res);
      assertEquals("invalid_argument", err.getString("error_type"), r[0] + " -> " + err.encode());
      assertTrue(err.getString("message").contains(r[1]), r[0] + " -> " + err.getString("message"));
    }
  }

  private static JsonObject sl(McpHttpClient c, String conn, String filter) throws Exception {
    return c.callTool("sl_query", new JsonObject().put("connectionId", conn)
        .put("measures", new JsonArray().add("orders.order_count"))
        .put("filters", new JsonArray().add(filter))).getJsonObject("result");
  }

  /** The worked example of the server instructions and the research guide, step by step. */
  @Test
  void theWorkedExampleOfTheInstructionsWorksAsWritten() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonArray refs = c.callTool("discover_data", new JsonObject().put("query", "revenue per country last month")
        .put("connectionId", "lite").put("limit", 5)).getJsonObject("result").getJsonObject("structuredContent")
        .getJsonArray("refs");
    List<String> top = refs.stream().map(o -> ((JsonObject) o).getString("kind") + ":" + ((JsonObject) o)
        .getString("id")).toList();
    assertTrue(top.contains("sl_measure:orders.revenue"), top.toString());
    assertTrue(top.contains("column:customers.country"), top.toString());
    JsonObject orders = c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite")
        .put("source", "orders")).getJsonObject("result").getJsonObject("structuredContent");
    assertTrue(orders.getJsonArray("joins").encode().contains("customers"), orders.encode());
    JsonObject r = c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
        .put("measures", new JsonArray().add("orders.revenue")).put("dimensions", new JsonArray().add("customers.country"))
        .put("filters", new JsonArray().add(new JsonObject().put("field", "orders.ordered_at").put("op", "during")
            .put("value", "previous month")))
        .put("order_by", new JsonArray().add(new JsonObject().put("id", "orders.revenue").put("desc", true)))
        .put("as_of", "2025-07-10")).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    assertFalse(r.getJsonObject("structuredContent").getJsonArray("rows").isEmpty(), r.encode());
    assertEquals("2025-06-01 00:00:00", r.getJsonObject("structuredContent").getJsonArray("ranges").getJsonObject(0)
        .getString("from"));
  }

  @Test
  void relativeRangesAreReportedResolvedAndBadOnesRefusedByName() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject r = c.callTool("sl_query", during("orders.order_count", null, "Last 2 Weeks", "2025-06-11")
        .put("connectionId", "pg").put("timezone", "+05:30")).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    assertEquals(new JsonObject().put("field", "orders.ordered_at").put("range", "Last 2 Weeks")
        .put("from", "2025-06-02 00:00:00").put("to", "2025-06-16 00:00:00").put("timezone", "+05:30"),
        r.getJsonObject("structuredContent").getJsonArray("ranges").getJsonObject(0));
    String[][] refused = {
        {"orders.ordered_at", "next month", "is not one sl_query knows"},
        {"orders.status", "last 30 days", "takes a time dimension"},
    };
    for (String[] x : refused) {
      JsonObject err = c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
          .put("measures", new JsonArray().add("orders.order_count")).put("filters", new JsonArray()
              .add(new JsonObject().put("field", x[0]).put("op", "during").put("value", x[1]))))
          .getJsonObject("result");
      err = McpHttpClient.errorBody(err);
      assertEquals("relative_range", err.getString("rule"), err.encode());
      assertTrue(err.getString("message").contains(x[2]), err.getString("message"));
    }
    JsonObject badAsOf = c.callTool("sl_query", during("orders.order_count", null, "today", "June 15")
        .put("connectionId", "lite")).getJsonObject("result");
    badAsOf = McpHttpClient.errorBody(badAsOf);
    assertEquals("as_of", badAsOf.getString("rule"), badAsOf.encode());
  }

  @Test
  void namedTimeZonesFollowDaylightSavingOnPostgresAndAreRefusedWhereTheEngineCannot() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject byDay = new JsonObject().put("connectionId", "pg")
        .put("measures", new JsonArray().add("orders.order_count"))
        .put("dimensions", new JsonArray().add(new JsonObject().put("dimension", "orders.ordered_at")
            .put("granularity", "day")))
        .put("filters", new JsonArray().add("orders.ordered_at BETWEEN '2024-03-01' AND '2024-03-20'"))
        .put("timezone", "America/New_York").put("limit", 1000);
    JsonObject r = c.callTool("sl_query", byDay).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    JsonObject s = r.getJsonObject("structuredContent");
    assertEquals("America/New_York", s.getString("timezone"));
    // the wall-clock time in New York: UTC-5 before 10 March 2024, UTC-4 after; filtered in that zone too
    String local = "(ordered_at AT TIME ZONE 'UTC' AT TIME ZONE 'America/New_York')";
    JsonObject hand = c.callTool("sql_execution", new JsonObject().put("connectionId", "pg").put("maxRows", 1000)
        .put("sql", "SELECT CAST(date_trunc('day', " + local + ") AS date), count(*) FROM " + t("pg", "orders")
            + " WHERE " + local + " BETWEEN '2024-03-01' AND '2024-03-20' GROUP BY 1"))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertEquals(normalized(hand.getJsonArray("rows"), false, 1), normalized(s.getJsonArray("rows"), false, 1),
        s.getString("sql"));
    JsonObject utc = c.callTool("sl_query", byDay.copy().put("timezone", "UTC")).getJsonObject("result")
        .getJsonObject("structuredContent");
    assertFalse(normalized(utc.getJsonArray("rows"), false, 1).equals(normalized(s.getJsonArray("rows"), false, 1)),
        "grouping in New York differs from grouping in UTC");

    JsonObject lite = McpHttpClient.errorBody(c.callTool("sl_query", byDay.copy().put("connectionId", "lite"))
        .getJsonObject("result"));
    assertEquals("timezone", lite.getString("rule"), lite.encode());
    assertTrue(lite.getString("message").contains("fixed offset"), lite.encode());
    JsonObject bogus = McpHttpClient.errorBody(c.callTool("sl_query", byDay.copy().put("timezone", "Mars/Olympus"))
        .getJsonObject("result"));
    assertTrue(bogus.getString("message").contains("neither an IANA zone name"), bogus.encode());

    // MariaDB converts named zones only with its time-zone tables loaded: answer either way, never NULL groups
    JsonObject my = c.callTool("sl_query", byDay.copy().put("connectionId", "my")).getJsonObject("result");
    if (my.getBoolean("isError")) {
      assertTrue(McpHttpClient.errorBody(my).getString("message").contains("no time-zone tables"),
          my.encode());
    } else {
      assertEquals(normalized(hand.getJsonArray("rows"), false, 1),
          normalized(my.getJsonObject("structuredContent").getJsonArray("rows"), false, 1));
    }
  }
}
