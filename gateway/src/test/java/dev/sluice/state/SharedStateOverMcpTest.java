package dev.sluice.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two gateways on one PostgreSQL state store (no cluster needed for that): what one writes, the
 * other serves: wiki pages and ingest runs, and approved queries published with
 * {@code sluice approved push}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedStateOverMcpTest {

  private String table;
  private Path dir;
  private Path configFile;
  private TestGateway one;
  private TestGateway two;

  @BeforeAll
  void start() throws Exception {
    TestDatabases.requirePostgres();
    table = TestDatabases.uniqueName("sluice_state_shared");
    dir = Files.createTempDirectory("sluice-shared");
    Path db = dir.resolve("shop.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT)");
      c.createStatement().execute("INSERT INTO orders VALUES (1, 'paid'), (2, 'shipped'), (3, 'paid')");
    }
    Files.createDirectories(dir.resolve("approved"));
    configFile = dir.resolve("sluice.yaml");
    Files.writeString(configFile, """
        server: {port: 0}
        state:
          dir: %s
          store: postgres
          postgres_url: %s
          postgres_table: %s
        catalog: {scan_on_start: false}
        audit: {postgres_table: %s_audit}
        approved_queries_dir: %s
        connections:
          - {id: shop, driver: sqlite, path: %s}
        """.formatted(dir.resolve("node"), TestDatabases.pgUrl(TestDatabases.PG_DATABASE), table, table,
        dir.resolve("approved"), db));
    SluiceConfig cfg = ConfigLoader.load(configFile, Map.of());
    // started at once, as a cluster's nodes are: both create the store's and the audit's tables
    java.util.concurrent.Callable<TestGateway> starting = () -> TestGateway.start(cfg, null);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      var a = pool.submit(starting);
      var b = pool.submit(starting);
      one = a.get(120, TimeUnit.SECONDS);
      two = b.get(120, TimeUnit.SECONDS);
    } finally {
      pool.shutdown();
    }
  }

  @AfterAll
  void stop() throws Exception {
    for (TestGateway g : new TestGateway[] {one, two}) {
      if (g != null) {
        g.close();
      }
    }
    if (table != null) {
      // with the shared store, the audit records went to the same database
      TestDatabases.dropPostgres("TABLE " + table, "SEQUENCE " + table + "_seq", "TABLE " + table + "_audit");
    }
  }

  private static String awaitRun(McpHttpClient c, String runId) throws Exception {
    String status = "queued";
    for (int i = 0; i < 200 && !status.equals("completed") && !status.equals("failed"); i++) {
      status = c.toolResult("memory_ingest_status", new JsonObject().put("runId", runId))
          .getJsonObject("structuredContent").getString("status");
      Thread.sleep(status.equals("completed") ? 0 : 25);
    }
    return status;
  }

  @Test
  void aPageIngestedThroughOneGatewayIsFoundThroughTheOther() throws Exception {
    McpHttpClient a = one.client();
    a.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    McpHttpClient b = two.client();
    b.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    String runId = a.toolResult("memory_ingest", new JsonObject().put("content", "# Paid means settled\nAn order with "
        + "status paid has been charged and settled. #glossary\n").put("connectionId", "shop"))
        .getJsonObject("structuredContent").getString("runId");
    // the run's status is read from the shared store: the other gateway answers it
    assertEquals("completed", awaitRun(b, runId));
    JsonObject found = b.toolResult("wiki_search", new JsonObject().put("query", "paid settled").put("connectionId", "shop"));
    assertTrue(found.encode().contains("paid-means-settled"), found.encode());
  }

  /** The operator's machine has the source files; the gateways' own directories do not. */
  @Test
  void semanticSourcesPushedOnceAreServedByEveryGateway() throws Exception {
    Path operator = dir.resolve("operator");
    Path operatorConfig = dir.resolve("operator.yaml");
    Files.writeString(operatorConfig, Files.readString(configFile).replace(dir.resolve("node").toString(),
        operator.toString()));
    Path sources = Files.createDirectories(operator.resolve("semantic/shop"));
    Files.writeString(sources.resolve("shop_orders.yaml"), """
        name: shop_orders
        table: orders
        description: Orders of the shared-state test.
        dimensions:
          - {name: status, column: status, type: string}
        measures:
          - {name: order_count, agg: count}
        """);
    Files.writeString(sources.resolve("broken.yaml"), "name: [not, a, name]\n");
    assertEquals(1, dev.sluice.cli.SluiceCommand.run("semantic", "push", "--config", operatorConfig.toString()),
        "a broken source stops the whole push");
    McpHttpClient c = two.client();
    c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    JsonObject args = new JsonObject().put("connectionId", "shop").put("source", "shop_orders");
    assertEquals("not_found", McpHttpClient.errorBody(c.toolResult("sl_read_source", args))
        .getString("error_type"), "nothing was pushed");
    Files.delete(sources.resolve("broken.yaml"));
    assertEquals(0, dev.sluice.cli.SluiceCommand.run("semantic", "push", "--config", operatorConfig.toString()));
    for (TestGateway g : new TestGateway[] {one, two}) {
      McpHttpClient s = g.client();
      s.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      JsonObject r = s.toolResult("sl_read_source", args);
      assertFalse(r.getBoolean("isError"), r.encode());
      assertTrue(r.encode().contains("order_count"), r.encode());
    }
    assertEquals(2, dev.sluice.cli.SluiceCommand.run("semantic", "push"), "the directory store has nothing to push to");
  }

  @Test
  void approvedQueriesPushedOnceAreServedByEveryGateway() throws Exception {
    Path approved = dir.resolve("approved");
    Files.writeString(approved.resolve("paid_orders.sql"), """
        /*
        description: Orders by status
        connection: shop
        parameters:
          status: {type: string, description: "paid or shipped"}
        */
        SELECT id FROM orders WHERE status = #{status} ORDER BY id
        """);
    Files.writeString(approved.resolve("broken.sql"), "SELECT 1");
    assertEquals(1, dev.sluice.cli.SluiceCommand.run("approved", "push", "--config", configFile.toString()),
        "a bad definition stops the whole push");
    Files.delete(approved.resolve("broken.sql"));
    assertEquals(0, dev.sluice.cli.SluiceCommand.run("approved", "push", "--config", configFile.toString()));
    for (TestGateway g : new TestGateway[] {one, two}) {
      McpHttpClient c = g.client();
      c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      JsonObject r = null;
      for (int i = 0; i < 100; i++) {
        r = c.toolResult("execute_approved_query", new JsonObject().put("queryId", "paid_orders")
            .put("parameters", new JsonObject().put("status", "paid")));
        if (!r.getBoolean("isError")) {
          break;
        }
        Thread.sleep(100); // picked up within the 2 s reload interval
      }
      assertFalse(r.getBoolean("isError"), r.encode());
      assertEquals("[[1],[3]]", r.getJsonObject("structuredContent").getJsonArray("rows").encode());
    }
    // the store now holds exactly the pushed files: removing one and pushing again removes it everywhere
    Files.delete(approved.resolve("paid_orders.sql"));
    assertEquals(0, dev.sluice.cli.SluiceCommand.run("approved", "push", "--config", configFile.toString()));
    McpHttpClient c = two.client();
    c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    JsonObject gone = null;
    for (int i = 0; i < 100; i++) {
      gone = c.toolResult("execute_approved_query", new JsonObject().put("queryId", "paid_orders")
          .put("parameters", new JsonObject().put("status", "paid")));
      if (gone.getBoolean("isError")) {
        break;
      }
      Thread.sleep(100);
    }
    assertTrue(gone.getBoolean("isError"), gone.encode());
  }

  /** `sluice scan` writes the snapshot once for both; a source ingested through one is served by the other. */
  @Test
  void aScanAndASemanticSourceReachEveryGateway() throws Exception {
    assertEquals(0, dev.sluice.cli.SluiceCommand.run("scan", "shop", "--config", configFile.toString()));
    McpHttpClient a = one.client();
    a.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    McpHttpClient b = two.client();
    b.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    JsonObject details = b.toolResult("entity_details", new JsonObject().put("connectionId", "shop")
        .put("entities", new io.vertx.core.json.JsonArray().add(new JsonObject().put("table", "orders"))));
    assertFalse(details.getBoolean("isError"), details.encode());
    String runId = a.toolResult("memory_ingest", new JsonObject().put("connectionId", "shop").put("content", """
        name: orders
        table: orders
        description: One row per order.
        dimensions:
          - {name: status, column: status, type: string}
        measures:
          - {name: order_count, agg: count}
        """)).getJsonObject("structuredContent").getString("runId");
    assertEquals("completed", awaitRun(a, runId));
    JsonObject source = b.toolResult("sl_read_source", new JsonObject().put("connectionId", "shop").put("source", "orders"));
    assertFalse(source.getBoolean("isError"), source.encode());
    assertTrue(source.encode().contains("order_count"), source.encode());
  }
}
