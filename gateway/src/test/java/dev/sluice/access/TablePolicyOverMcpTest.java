package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TableRules;
import dev.sluice.config.Tokens;
import dev.sluice.demo.DemoDataset;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two principals with different table policies on the demo: what each may query, and what every
 * catalog tool shows it (tables, columns, sampled values).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TablePolicyOverMcpTest {

  private static final String SALES = Tokens.newToken();
  private static final String FINANCE = Tokens.newToken();
  private TestGateway gw;

  @BeforeAll
  void start() throws Exception {
    Path dir = Files.createTempDirectory("sluice-policy");
    Path db = dir.resolve("shop.sqlite");
    DemoDataset.writeSqlite(db);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE VIEW v_payments AS SELECT * FROM payments");
      // views the rules do not name: the policy follows them to what they read
      c.createStatement().execute("CREATE VIEW paid_totals AS SELECT order_id, amount FROM payments");
      c.createStatement().execute("CREATE VIEW \"big paid\" (order_id, amount) AS SELECT * FROM paid_totals "
          + "WHERE amount > 100");
      c.createStatement().execute("CREATE VIEW customer_contacts AS SELECT c.id, c.name, c.email FROM customers c");
      c.createStatement().execute("CREATE VIEW order_totals AS SELECT id, total FROM orders");
    }
    ConnectionConfig shop = new ConnectionConfig("shop", Driver.SQLITE, null, db.toString(), null, null, "shop",
        2, 64, 30_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(shop), dir).withPrincipals(List.of(
        new PrincipalConfig("sales", List.of(Tokens.sha256Hex(SALES)), List.of(), null, Map.of("shop",
            new TableRules(List.of("*"), List.of("payments", "v_*"), List.of("customers.email")))),
        new PrincipalConfig("finance", List.of(Tokens.sha256Hex(FINANCE)), List.of(), null, Map.of("shop",
            new TableRules(List.of("main.payments", "main.orders", "v_payments"), List.of(), List.of())))));
    OneOffScan.run(config, "shop");
    gw = TestGateway.start(config, null);
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
  }

  private McpHttpClient as(String token) throws Exception {
    return gw.session(token);
  }

  private static JsonObject sql(McpHttpClient c, String sql) throws Exception {
    return c.toolResult("sql_execution", new JsonObject().put("connectionId", "shop").put("sql", sql));
  }

  private static void refused(McpHttpClient c, String sql, String containing) throws Exception {
    JsonObject r = sql(c, sql);
    assertTrue(r.getBoolean("isError"), sql + " must be refused: " + r.encode());
    JsonObject e = McpHttpClient.errorBody(r);
    assertEquals("permission_denied", e.getString("error_type"), sql + ": " + e.encode());
    assertTrue(e.getString("message").contains(containing), sql + ": " + e.getString("message"));
  }

  @Test
  void queriesReachingADeniedTableOrColumnAreRefusedWhateverTheShape() throws Exception {
    McpHttpClient sales = as(SALES);
    refused(sales, "SELECT * FROM payments", "table 'payments' is not allowed for principal 'sales'");
    refused(sales, "WITH p AS (SELECT amount FROM payments) SELECT count(*) FROM p", "'payments'");
    refused(sales, "SELECT count(*) FROM (SELECT id FROM main.payments) x", "'main.payments'");
    refused(sales, "SELECT id FROM orders UNION SELECT id FROM \"payments\"", "'payments'");
    refused(sales, "SELECT o.id FROM orders o WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id)",
        "'payments'");
    refused(sales, "SELECT * FROM v_payments", "'v_payments'");
    refused(sales, "SELECT c.email FROM customers c", "column 'customers.email'");
    refused(sales, "SELECT name FROM customers WHERE email LIKE '%@example.com'", "column 'customers.email'");
    refused(sales, "WITH x AS (SELECT email FROM customers) SELECT * FROM x", "column 'customers.email'");
    JsonObject star = McpHttpClient.errorBody(sql(sales, "SELECT * FROM customers"));
    assertEquals("permission_denied", star.getString("error_type"));
    assertEquals(new JsonArray().add("id").add("name").add("city").add("country").add("segment").add("created_at"),
        star.getJsonArray("permittedColumns"));
    refused(sales, "SELECT c.* FROM customers c", "SELECT * over 'customers'");
    refused(sales, "SELECT name FROM sqlite_master", "catalog relation");
    refused(sales, "SELECT * FROM pragma_table_info('payments')", "pragma_table_info");
    refused(sales, "PRAGMA table_info(payments)", "PRAGMA");
    refused(sales, "EXPLAIN QUERY PLAN SELECT * FROM payments", "'payments'");

    assertFalse(sql(sales, "SELECT name, city FROM customers WHERE city = 'Berlin' LIMIT 3").getBoolean("isError"));
    assertFalse(sql(sales, "WITH o AS (SELECT customer_id FROM orders) SELECT count(*) FROM o JOIN customers c "
        + "ON c.id = o.customer_id").getBoolean("isError"));

    McpHttpClient finance = as(FINANCE);
    refused(finance, "SELECT count(*) FROM customers", "table 'customers' is not allowed for principal 'finance'");
    assertFalse(sql(finance, "SELECT method, count(*) FROM payments GROUP BY method").getBoolean("isError"));
    assertFalse(sql(finance, "SELECT count(*) FROM v_payments").getBoolean("isError"));
  }

  /** Views nobody listed in the rules: what they read decides, as if the statement read it itself. */
  @Test
  void aViewIsReadableOnlyIfWhatItReadsIs() throws Exception {
    McpHttpClient sales = as(SALES);
    refused(sales, "SELECT count(*) FROM paid_totals", "view 'paid_totals' reads a table or column your policy denies");
    refused(sales, "SELECT o.id FROM orders o JOIN \"big paid\" b ON b.order_id = o.id", "view 'big paid'");
    refused(sales, "SELECT name FROM customer_contacts", "view 'customer_contacts'");
    for (String view : List.of("paid_totals", "customer_contacts")) {
      String text = sql(sales, "SELECT count(*) FROM " + view).encode();
      // what the view reads is its owner's business, and may be exactly what the policy hides
      assertFalse(text.contains("payments") || text.contains("email"), text);
    }
    JsonObject viaView = McpHttpClient.errorBody(sql(sales, "SELECT count(*) FROM paid_totals"));
    assertEquals("paid_totals", viaView.getString("view"));
    assertFalse(sql(sales, "SELECT id, total FROM order_totals ORDER BY id LIMIT 2").getBoolean("isError"),
        "a view over allowed tables and columns stays readable");
    McpHttpClient finance = as(FINANCE);
    refused(finance, "SELECT count(*) FROM order_totals", "table 'order_totals' is not allowed");
  }

  @Test
  void catalogToolsShowEachPrincipalOnlyWhatItMayRead() throws Exception {
    McpHttpClient sales = as(SALES);
    JsonObject details = sales.toolResult("entity_details", new JsonObject().put("connectionId", "shop")
        .put("entities", new JsonArray().add(new JsonObject().put("table", "customers"))
            .add(new JsonObject().put("table", "payments"))));
    JsonObject s = details.getJsonObject("structuredContent");
    List<String> columns = s.getJsonArray("entities").getJsonObject(0).getJsonArray("columns").stream()
        .map(o -> ((JsonObject) o).getString("name")).toList();
    assertFalse(columns.contains("email"), columns.toString());
    assertEquals("table_not_found", s.getJsonArray("errors").getJsonObject(0).getString("error_type"));
    JsonObject views = sales.toolResult("entity_details", new JsonObject().put("connectionId", "shop")
        .put("entities", new JsonArray().add(new JsonObject().put("table", "order_totals"))
            .add(new JsonObject().put("table", "customer_contacts")))).getJsonObject("structuredContent");
    assertEquals(1, views.getJsonArray("entities").size(), views.encode());
    assertEquals("table_not_found", views.getJsonArray("errors").getJsonObject(0).getString("error_type"),
        "a view over a denied column is hidden like the column");

    JsonArray refs = sales.toolResult("discover_data", new JsonObject().put("query", "payment method amount email")
        .put("limit", 50)).getJsonObject("structuredContent").getJsonArray("refs");
    for (Object o : refs) {
      JsonObject r = (JsonObject) o;
      String id = r.getString("id");
      assertFalse(id.startsWith("payments") || id.startsWith("v_payments") || id.equals("customers.email")
          || id.startsWith("paid_totals") || id.startsWith("big paid") || id.startsWith("customer_contacts"), id);
      assertFalse(String.valueOf(r.getString("snippet")).contains("email"), r.encode());
    }

    JsonObject dict = sales.toolResult("dictionary_search", new JsonObject()
        .put("values", new JsonArray().add("paypal").add("@example.com").add("Berlin"))).getJsonObject("structuredContent");
    JsonArray results = dict.getJsonArray("results");
    assertTrue(results.getJsonObject(0).getJsonArray("matches").isEmpty(), results.encode());
    assertTrue(results.getJsonObject(1).getJsonArray("matches").isEmpty(), results.encode());
    assertFalse(results.getJsonObject(2).getJsonArray("matches").isEmpty(), results.encode());

    McpHttpClient finance = as(FINANCE);
    JsonObject fdict = finance.toolResult("dictionary_search", new JsonObject()
        .put("values", new JsonArray().add("paypal").add("Berlin"))).getJsonObject("structuredContent");
    assertFalse(fdict.getJsonArray("results").getJsonObject(0).getJsonArray("matches").isEmpty());
    assertTrue(fdict.getJsonArray("results").getJsonObject(1).getJsonArray("matches").isEmpty(),
        "customers.city is not finance's: " + fdict.encode());
    JsonArray frefs = finance.toolResult("discover_data", new JsonObject().put("query", "customer city country")
        .put("limit", 50)).getJsonObject("structuredContent").getJsonArray("refs");
    assertTrue(frefs.stream().map(o -> ((JsonObject) o).getString("id")).noneMatch(id -> id.startsWith("customers")),
        frefs.encode());
  }
}
