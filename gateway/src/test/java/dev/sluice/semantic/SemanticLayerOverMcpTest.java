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
import org.junit.jupiter.api.AfterAll;
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
    gw = TestGateway.start(config, null);
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
    if (demo != null) {
      demo.close();
    }
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
    JsonObject missing = c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite")
        .put("source", "broken")).getJsonObject("result").getJsonObject("structuredContent");
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
    JsonObject trap = c.callTool("sl_query", new JsonObject().put("connectionId", "pg")
        .put("measures", new JsonArray().add("orders.revenue")).put("dimensions", new JsonArray().add("products.category")))
        .getJsonObject("result").getJsonObject("structuredContent");
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
    JsonObject typo = c.callTool("sl_query", new JsonObject().put("connectionId", "lite")
        .put("measures", new JsonArray().add("orders.revenu"))).getJsonObject("result").getJsonObject("structuredContent");
    assertTrue(typo.getString("message").contains("did you mean orders.revenue"), typo.encode());
    JsonObject source = c.callTool("sl_read_source", new JsonObject().put("connectionId", "lite").put("source", "orders"))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertTrue(source.getJsonArray("measures").encode().contains("orders.revenue"));
    assertTrue(source.getJsonArray("joins").encode().contains("customers"));
  }
}
