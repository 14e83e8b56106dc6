package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.DemoOnThreeEngines;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.ToolTour;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The SQL tools' answers on PostgreSQL and MariaDB through the official TypeScript SDKs (1.x on
 * revision 2025-11-25, 2.x on 2026-07-28): every error type a network engine gives back, and the
 * statements an attacker sends (a second statement behind a read, a write), each must come back in
 * band with its error type, accepted by the SDK's outputSchema check. {@link ToolTourIT} does the
 * same on SQLite; the engines' own error texts and the MariaDB path that sends a read of base
 * tables alone differ from it. The orders are counted before and after: nothing was changed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlErrorsOnServersIT {

  private static final List<String> SERVERS = List.of("pg", "my");
  @AutoClose
  private DemoOnThreeEngines demo;
  private TestGateway gw;

  @BeforeAll
  void start() throws Exception {
    NodeClients.node();
    demo = DemoOnThreeEngines.load("sdkerr");
    gw = demo.serve(TestGateway.config(ServerConfig.defaults(), demo.connections(2_000), demo.dir));
  }


  @Test
  void typeScriptSdk1SeesEverySqlErrorOfTheServersInBand() throws Exception {
    tour("sdk-client-tour.mjs");
  }

  @Test
  void typeScriptSdk2SeesEverySqlErrorOfTheServersInBand() throws Exception {
    tour("sdk2-client-tour.mjs");
  }

  private void tour(String script) throws Exception {
    List<Long> before = orderCounts();
    JsonObject transport = new JsonObject().put("kind", "http").put("url", gw.url())
        .put("sessions", new JsonObject().putNull("main"));
    JsonArray calls = calls();
    JsonObject summary = ToolTour.in(demo.dir).run(script, transport, calls);
    assertEquals(calls.size(), summary.getJsonArray("calls").size(), summary.encode());
    System.out.printf("%s: %d SQL calls on PostgreSQL and MariaDB, every answer in band as expected%n", script,
        calls.size());
    assertEquals(before, orderCounts(), "rows of orders before and after the tour");
  }

  private JsonArray calls() {
    ToolTour.Calls c = new ToolTour.Calls();
    for (String conn : SERVERS) {
      String orders = demo.table(conn, "orders");
      String customers = demo.table(conn, "customers");
      String sleep = conn.equals("pg") ? "SELECT pg_sleep(5)" : "SELECT SLEEP(5)";
      c.ok("sql_execution", sql(conn, "SELECT status, count(*) AS n FROM " + orders + " GROUP BY status ORDER BY status"),
          "status\tn", "delivered\t");
      c.ok("sql_execution", sql(conn, "SELECT 1 AS one"), "one");
      c.error("sql_execution", sql(conn, "SELECT * FROM " + orders + " ORDER BY"), "syntax_error");
      c.error("sql_execution", sql(conn, "SELECT * FROM " + demo.table(conn, "ordrs")), "table_not_found", "ordrs");
      c.error("sql_execution", sql(conn, "SELECT nme FROM " + customers), "column_not_found", "nme");
      // PostgreSQL files this under SQLSTATE 42601 (syntax_error) with the position; MariaDB's 1222 is no syntax error
      c.error("sql_execution", sql(conn, "SELECT 1 UNION SELECT 1, 2"), conn.equals("pg") ? "syntax_error" : "query_error",
          "number of columns");
      c.error("sql_execution", sql(conn, "DELETE FROM " + orders), "validation_failed");
      c.error("sql_execution", sql(conn, "SELECT 1; DELETE FROM " + orders), "validation_failed");
      c.error("sql_execution", sql(conn, sleep), "timeout", "query exceeded 2s");
      c.error("sql_execution", sql(conn, "SELECT 1").put("maxRows", 0), "invalid_argument", "/maxRows");
      c.ok("sql_explain", sql(conn, "SELECT * FROM " + orders + " WHERE id = 1"), "orders");
      c.error("sql_explain", sql(conn, "SELECT * FROM " + demo.table(conn, "ordrs")), "table_not_found", "ordrs");
      c.error("sql_explain", sql(conn, "SELECT 1; DELETE FROM " + orders), "validation_failed");
      c.error("sql_explain", sql(conn, "DELETE FROM " + orders), "validation_failed");
      c.ok("sql_compare", new JsonObject().put("connectionId", conn).put("baselineSql", "SELECT count(*) FROM " + orders)
          .put("candidateSql", "SELECT count(id) FROM " + orders), "EQUAL results");
      c.error("sql_compare", new JsonObject().put("connectionId", conn).put("baselineSql", "SELECT count(*) FROM " + orders)
          .put("candidateSql", "SELECT count(*) FROM " + demo.table(conn, "ordrs")), "table_not_found",
          "\"side\":\"candidate\"");
    }
    return c.all;
  }

  private static JsonObject sql(String conn, String sql) {
    return new JsonObject().put("connectionId", conn).put("sql", sql);
  }

  private List<Long> orderCounts() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    List<Long> counts = new java.util.ArrayList<>();
    for (String conn : SERVERS) {
      JsonObject r = c.callTool("sql_execution", sql(conn, "SELECT count(*) AS n FROM " + demo.table(conn, "orders")))
          .getJsonObject("result");
      assertFalse(r.getBoolean("isError"), r.encode());
      counts.add(Long.parseLong(r.getJsonArray("content").getJsonObject(0).getString("text").lines()
          .filter(l -> l.matches("\\d+")).findFirst().orElseThrow()));
    }
    return counts;
  }
}
