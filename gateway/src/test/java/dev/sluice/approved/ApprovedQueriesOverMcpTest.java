package dev.sluice.approved;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.McpHttpClient.SseEvent;
import dev.sluice.testing.DemoOnThreeEngines;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Approved queries on the demo in SQLite, PostgreSQL and MariaDB: typed parameters bound by SQL
 * Client Templates (bound statements in the SQLite worker), injection strings kept as data, schema
 * errors naming the parameter, as_tool tools, reload with list_changed, secrets redacted in the audit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApprovedQueriesOverMcpTest {

  @AutoClose
  private DemoOnThreeEngines demo;
  private TestGateway gw;
  private Path dir;
  private Path approved;

  private static String definition(String id, String connection, String table, boolean asTool) {
    return """
        /*
        id: %s
        name: Orders with a status
        description: Orders in one status above a minimum total
        connection: %s
        parameters:
          status: {type: string, description: "pending, paid, shipped, delivered, cancelled or refunded"}
          min_total: {type: number, default: 0, description: "EUR"}
        limit: {default: 5, max: 20}
        show_sql: true
        as_tool: %s
        */
        SELECT id, status, total FROM %s WHERE status = #{status} AND total >= #{min_total} ORDER BY id
        """.formatted(id, connection, asTool, table);
  }

  @BeforeAll
  void start() throws Exception {
    demo = DemoOnThreeEngines.load("aq");
    dir = demo.dir;
    approved = dir.resolve("approved");
    Files.createDirectories(approved);
    Files.writeString(approved.resolve("lite_orders.sql"), definition("lite_orders", "lite", "orders", true));
    Files.writeString(approved.resolve("pg_orders.sql"), definition("pg_orders", "pg", demo.table("pg", "orders"), false));
    Files.writeString(approved.resolve("my_orders.sql"), definition("my_orders", "my", demo.table("my", "orders"), false));
    Files.writeString(approved.resolve("customer_by_email.sql"), """
        /*
        description: A customer by e-mail address
        connection: lite
        parameters:
          email: {type: string, secret: true}
        */
        SELECT id, name FROM customers WHERE email = #{email}
        """);
    List<ConnectionConfig> cs = demo.connections(30_000);
    gw = demo.serve(TestGateway.config(ServerConfig.defaults(), cs, dir).withApprovedDir(approved));
  }


  private McpHttpClient session() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    return c;
  }

  private static JsonObject run(McpHttpClient c, String id, JsonObject params) throws Exception {
    return c.callTool("execute_approved_query", new JsonObject().put("queryId", id).put("parameters", params))
        .getJsonObject("result");
  }

  @Test
  void typedParametersRunOnEveryEngineAndInjectionStringsAreData() throws Exception {
    McpHttpClient c = session();
    for (String id : List.of("lite_orders", "pg_orders", "my_orders")) {
      JsonObject ok = run(c, id, new JsonObject().put("status", "shipped").put("min_total", 100));
      assertFalse(ok.getBoolean("isError"), id + ": " + ok.encode());
      JsonObject s = ok.getJsonObject("structuredContent");
      assertEquals(5, s.getJsonArray("rows").size(), id + " honours the default limit");
      for (Object row : s.getJsonArray("rows")) {
        assertEquals("shipped", ((JsonArray) row).getString(1), id);
        assertTrue(Double.parseDouble(String.valueOf(((JsonArray) row).getValue(2))) >= 100, id);
      }
      for (String attack : List.of("shipped' OR '1'='1", "x'); DROP TABLE orders; --", "shipped\\' OR 1=1 -- ")) {
        JsonObject r = run(c, id, new JsonObject().put("status", attack));
        assertFalse(r.getBoolean("isError"), id + " " + attack + ": " + r.encode());
        assertEquals(0, r.getJsonObject("structuredContent").getInteger("rowCount"), id + ": " + attack);
      }
      assertFalse(run(c, id, new JsonObject().put("status", "paid")).getBoolean("isError"), "orders still there");
      JsonObject wrong = McpHttpClient.errorBody(run(c, id, new JsonObject().put("status", "paid").put("min_total", "lots")));
      assertEquals("invalid_argument", wrong.getString("error_type"));
      assertTrue(wrong.getString("message").contains("/min_total"), wrong.getString("message"));
      JsonObject missing = McpHttpClient.errorBody(run(c, id, new JsonObject()));
      assertTrue(missing.getString("message").contains("status"), missing.getString("message"));
    }
    JsonObject limited = c.callTool("execute_approved_query", new JsonObject().put("queryId", "pg_orders")
        .put("parameters", new JsonObject().put("status", "paid")).put("limit", 500)).getJsonObject("result");
    assertEquals(20, limited.getJsonObject("structuredContent").getJsonArray("rows").size(), "capped at max");
  }

  @Test
  void theListShowsSchemasAsToolsAppearAndReloadsNotify() throws Exception {
    McpHttpClient c = session();
    JsonArray queries = c.callTool("approved_query_list", new JsonObject()).getJsonObject("result")
        .getJsonObject("structuredContent").getJsonArray("queries");
    JsonObject lite = queries.stream().map(o -> (JsonObject) o).filter(q -> q.getString("id").equals("lite_orders"))
        .findFirst().orElseThrow();
    assertEquals(new JsonArray().add("status"), lite.getJsonObject("parameters").getJsonArray("required"));
    assertTrue(lite.getString("sql").contains("#{status}"));
    JsonObject byEmail = queries.stream().map(o -> (JsonObject) o)
        .filter(q -> q.getString("id").equals("customer_by_email")).findFirst().orElseThrow();
    assertFalse(byEmail.containsKey("sql"), "show_sql is off by default");

    JsonArray tools = c.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    JsonObject tool = tools.stream().map(o -> (JsonObject) o).filter(t -> t.getString("name").equals("lite_orders"))
        .findFirst().orElseThrow();
    assertEquals("string", tool.getJsonObject("inputSchema").getJsonObject("properties").getJsonObject("status")
        .getString("type"));
    JsonObject viaTool = c.callTool("lite_orders", new JsonObject().put("status", "paid").put("limit", 2))
        .getJsonObject("result");
    assertEquals(2, viaTool.getJsonObject("structuredContent").getJsonArray("rows").size(), viaTool.encode());

    HttpResponse<InputStream> get = c.getStream(Map.of());
    CompletableFuture<List<SseEvent>> events = CompletableFuture.supplyAsync(() -> {
      try {
        return McpHttpClient.readEvents(get.body(), 1);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    Files.writeString(approved.resolve("lite_paid.sql"), definition("lite_paid", "lite", "orders", true));
    List<SseEvent> changed = events.get(20, TimeUnit.SECONDS);
    assertEquals("notifications/tools/list_changed", changed.get(0).message().getString("method"));
    assertTrue(c.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools").stream()
        .anyMatch(o -> ((JsonObject) o).getString("name").equals("lite_paid")));
  }

  @Test
  void secretParametersAreRedactedInTheAudit() throws Exception {
    McpHttpClient c = session();
    String email = DemoDataset.generate().rows(dev.sluice.demo.DemoSchema.CUSTOMERS).get(0)[2].toString();
    JsonObject r = run(c, "customer_by_email", new JsonObject().put("email", email));
    assertEquals(1, r.getJsonObject("structuredContent").getInteger("rowCount"), r.encode());
    // the parameters are audited in the order the agent gave them, whichever it was
    run(c, "lite_orders", new JsonObject().put("status", "paid").put("min_total", 10));
    run(c, "lite_orders", new JsonObject().put("min_total", 20).put("status", "paid"));
    gw.gateway.audit().close();
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("audit"))) {
      for (Path f : files.toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    assertTrue(lines.stream().noneMatch(l -> l.contains(email)), "the secret value reached the audit");
    JsonObject rec = lines.stream().map(JsonObject::new)
        .filter(j -> "customer_by_email".equals(j.getString("approvedQueryId"))).findFirst().orElseThrow();
    assertEquals(new JsonObject().put("email", "[redacted]"), rec.getJsonObject("parameters"));
    List<String> audited = lines.stream().map(JsonObject::new)
        .filter(j -> "lite_orders".equals(j.getString("approvedQueryId")))
        .map(j -> j.getJsonObject("parameters").encode()).toList();
    assertTrue(audited.contains("{\"status\":\"paid\",\"min_total\":10}")
        && audited.contains("{\"min_total\":20,\"status\":\"paid\"}"), audited.toString());
  }
}
