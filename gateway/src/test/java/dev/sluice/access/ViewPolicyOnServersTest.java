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
import dev.sluice.gateway.OneOffScan;
import dev.sluice.testing.DemoOnThreeEngines;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Views the rules do not name, on all three engines: each engine hands the scan the view's text in
 * its own form (pg_get_viewdef, MariaDB's rewritten VIEW_DEFINITION, SQLite's CREATE VIEW), and
 * the policy follows it to the tables and columns behind the view.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ViewPolicyOnServersTest {

  private static final String SALES = Tokens.newToken();
  @AutoClose
  private DemoOnThreeEngines demo;
  private TestGateway gw;

  @BeforeAll
  void start() throws Exception {
    demo = DemoOnThreeEngines.load("vp");
    for (String conn : List.of("pg", "my")) {
      demo.exec(conn, "CREATE VIEW " + demo.table(conn, "paid_totals") + " AS SELECT order_id, amount FROM "
          + demo.table(conn, "payments"));
      demo.exec(conn, "CREATE VIEW " + demo.table(conn, "customer_contacts") + " AS SELECT c.id, c.name, c.email FROM "
          + demo.table(conn, "customers") + " c");
      demo.exec(conn, "CREATE VIEW " + demo.table(conn, "order_totals") + " AS SELECT id, total FROM "
          + demo.table(conn, "orders"));
      demo.exec(conn, "CREATE VIEW " + demo.table(conn, "big_paid") + " AS SELECT * FROM "
          + demo.table(conn, "paid_totals") + " WHERE amount > 100");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo.dir.resolve("shop.sqlite"))) {
      c.createStatement().execute("CREATE VIEW paid_totals AS SELECT order_id, amount FROM payments");
      c.createStatement().execute("CREATE VIEW customer_contacts AS SELECT c.id, c.name, c.email FROM customers c");
      c.createStatement().execute("CREATE VIEW order_totals AS SELECT id, total FROM orders");
      c.createStatement().execute("CREATE VIEW big_paid AS SELECT * FROM paid_totals WHERE amount > 100");
    }
    List<ConnectionConfig> cs = demo.connections(30_000);
    TableRules rules = new TableRules(List.of("*"), List.of("payments"), List.of("customers.email"));
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), cs, demo.dir).withPrincipals(List.of(
        new PrincipalConfig("sales", List.of(Tokens.sha256Hex(SALES)), List.of(), null,
            Map.of("lite", rules, "pg", rules, "my", rules))));
    for (ConnectionConfig c : cs) {
      OneOffScan.run(config, c.id());
    }
    gw = demo.serve(config);
  }


  private JsonObject sql(McpHttpClient c, String conn, String table, String select) throws Exception {
    return c.callTool("sql_execution", new JsonObject().put("connectionId", conn)
        .put("sql", select + " FROM " + demo.table(conn, table))).getJsonObject("result");
  }

  @Test
  void aViewIsReadableOnlyIfWhatItReadsIsOnEveryEngine() throws Exception {
    McpHttpClient sales = gw.session(SALES);
    for (String conn : List.of("lite", "pg", "my")) {
      for (String view : List.of("paid_totals", "big_paid", "customer_contacts")) {
        JsonObject r = sql(sales, conn, view, "SELECT count(*)");
        assertTrue(r.getBoolean("isError"), conn + " " + view + ": " + r.encode());
        JsonObject e = McpHttpClient.errorBody(r);
        assertEquals("permission_denied", e.getString("error_type"), conn + " " + view + ": " + e.encode());
        assertEquals(view, e.getString("view"), e.encode());
        assertFalse(r.encode().contains(view.equals("customer_contacts") ? "email" : "payments"),
            conn + " " + view + ": the refusal names what the view reads: " + r.encode());
      }
      JsonObject ok = sql(sales, conn, "order_totals", "SELECT count(*) AS n");
      assertFalse(ok.getBoolean("isError"), conn + ": " + ok.encode());
      assertEquals(1, ok.getJsonObject("structuredContent").getInteger("rowCount"));
    }
  }
}
