package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.McpHttpClient.SseEvent;
import dev.sluice.testing.TestGateway;
import dev.sluice.wiki.WikiStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** memory_ingest and memory_ingest_status end to end over HTTP, with the search tools seeing the result. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryIngestOverMcpTest {

  private TestGateway gw;
  private Path dir;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("sluice-ingest");
    Path db = dir.resolve("shop.sqlite");
    DemoDataset.writeSqlite(db);
    ConnectionConfig shop = new ConnectionConfig("shop", Driver.SQLITE, null, db.toString(), null, null, "demo",
        2, 64, 30_000, 1_000, 10_000);
    ConnectionConfig other = new ConnectionConfig("other", Driver.SQLITE, null, db.toString(), null, null, "other",
        1, 64, 30_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(shop, other), dir);
    gw = TestGateway.start(config, null);
    OneOffScan.run(config, "shop");
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
  }

  private McpHttpClient session() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    return c;
  }

  private static JsonObject structured(JsonObject response) {
    JsonObject r = response.getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    return r.getJsonObject("structuredContent");
  }

  private static JsonObject awaitRun(McpHttpClient c, String runId) throws Exception {
    for (int i = 0; i < 500; i++) {
      JsonObject s = structured(c.callTool("memory_ingest_status", new JsonObject().put("runId", runId)));
      if ("completed".equals(s.getString("status")) || "failed".equals(s.getString("status"))) {
        return s;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("run " + runId + " never finished");
  }

  @Test
  void anIngestedNoteIsFoundByTheSearchToolsOnlyWithinItsScope() throws Exception {
    McpHttpClient c = session();
    c.call("logging/setLevel", new JsonObject().put("level", "info"));
    HttpResponse<InputStream> get = c.getStream(Map.of());
    assertEquals(200, get.statusCode());
    CompletableFuture<List<SseEvent>> notes = CompletableFuture.supplyAsync(() -> {
      try {
        return McpHttpClient.readEvents(get.body(), 2);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    String content = "# Loyalty discount rule\nOrders of platinum customers get the loyalty discount in "
        + "order_items.discount; it never stacks with gift cards. #pricing\n";
    JsonObject started = structured(c.callTool("memory_ingest", new JsonObject().put("content", content)
        .put("connectionId", "shop")));
    assertEquals("queued", started.getString("status"));
    JsonObject done = awaitRun(c, started.getString("runId"));
    assertEquals("completed", done.getString("status"), done.encode());
    assertEquals("loyalty-discount-rule", done.getJsonArray("pages").getJsonObject(0).getString("key"));

    List<SseEvent> pushed = notes.get(20, TimeUnit.SECONDS);
    assertEquals("notifications/message", pushed.get(0).message().getString("method"));
    JsonObject data = pushed.get(1).message().getJsonObject("params").getJsonObject("data");
    assertEquals(started.getString("runId"), data.getString("runId"));
    assertEquals("completed", data.getString("status"));

    JsonObject found = structured(c.callTool("wiki_search", new JsonObject().put("query", "platinum loyalty")
        .put("connectionId", "shop")));
    assertEquals("loyalty-discount-rule", found.getJsonArray("pages").getJsonObject(0).getString("key"));
    JsonArray refs = structured(c.callTool("discover_data", new JsonObject().put("query", "loyalty discount gift cards")
        .put("connectionId", "shop").put("limit", 5))).getJsonArray("refs");
    assertTrue(refs.stream().anyMatch(o -> "loyalty-discount-rule".equals(((JsonObject) o).getString("id"))),
        refs.encode());
    JsonObject elsewhere = structured(c.callTool("wiki_search", new JsonObject().put("query", "platinum loyalty")
        .put("connectionId", "other")));
    assertTrue(elsewhere.getJsonArray("pages").isEmpty(), elsewhere.encode());
    JsonObject page = structured(c.callTool("wiki_read", new JsonObject().put("key", "loyalty-discount-rule")));
    assertEquals(new JsonArray().add("customers").add("order_items").add("order_items.discount").add("orders"),
        page.getJsonArray("tables"));
    assertEquals(new JsonArray().add("pricing"), page.getJsonArray("tags"));
  }

  @Test
  void twoHundredConcurrentIngestsFromTwentySessionsAllComplete() throws Exception {
    List<McpHttpClient> sessions = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sessions.add(session());
    }
    ExecutorService pool = Executors.newFixedThreadPool(20);
    try {
      List<Future<String>> runs = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        int n = i;
        McpHttpClient c = sessions.get(i % 20);
        runs.add(pool.submit(() -> structured(c.callTool("memory_ingest", new JsonObject()
            .put("content", "# Batch note " + n + "\nFinding " + n + " about payments.\n"))).getString("runId")));
      }
      Set<String> keys = new HashSet<>();
      for (Future<String> f : runs) {
        JsonObject s = awaitRun(sessions.get(0), f.get(60, TimeUnit.SECONDS));
        assertEquals("completed", s.getString("status"), s.encode());
        assertEquals("created", s.getJsonArray("pages").getJsonObject(0).getString("action"));
        assertTrue(keys.add(s.getJsonArray("pages").getJsonObject(0).getString("key")), "duplicate key");
      }
      assertEquals(200, keys.size());
      long stored = new WikiStore(dir).all().stream().filter(p -> p.key().startsWith("batch-note-")).count();
      assertEquals(200, stored);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void badInputsAreInBandErrorsWithAReason() throws Exception {
    McpHttpClient c = session();
    record Case(JsonObject args, String type, String reason) {}
    for (Case k : List.of(
        new Case(new JsonObject().put("content", "   "), "invalid_argument", "empty"),
        new Case(new JsonObject().put("content", "# A\u0000B\u0001\u0002\u0003"), "invalid_argument", "not_text"),
        new Case(new JsonObject().put("content", "# ../../../etc/cron.d/x\nboom"), "invalid_argument", "unsafe_key"),
        new Case(new JsonObject().put("content", "# Fine\nok").put("connectionId", "nope"), "invalid_argument", null))) {
      JsonObject r = c.callTool("memory_ingest", k.args()).getJsonObject("result");
      assertTrue(r.getBoolean("isError"), r.encode());
      assertEquals(k.type(), McpHttpClient.errorBody(r).getString("error_type"), r.encode());
      if (k.reason() != null) {
        assertEquals(k.reason(), McpHttpClient.errorBody(r).getString("reason"), r.encode());
      }
    }
    JsonObject unknown = c.callTool("memory_ingest_status", new JsonObject().put("runId", "no-such-run"))
        .getJsonObject("result");
    assertEquals("not_found", McpHttpClient.errorBody(unknown).getString("error_type"));
    assertFalse(Files.exists(dir.resolve("wiki/etc-cron-d-x.md")));
  }
}
