package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * discover_data and the wiki tools over HTTP on the scanned SQLite demo, including the retrieval
 * evaluation: natural-language questions an analyst would ask, each with the refs that answer it
 * (src/test/resources/discovery-eval.tsv); recall@5 must stay at or above 0.9.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DiscoveryOverMcpTest {

  static final double MIN_RECALL_AT_5 = 0.9;

  private TestGateway gw;
  private Path wiki;

  @BeforeAll
  void start() throws Exception {
    Path dir = Files.createTempDirectory("sluice-discovery");
    Path db = dir.resolve("shop.sqlite");
    DemoDataset.writeSqlite(db);
    ConnectionConfig shop = new ConnectionConfig("shop", Driver.SQLITE, null, db.toString(), null, null, "demo",
        2, 64, 30_000, 1_000, 10_000);
    ConnectionConfig other = new ConnectionConfig("other", Driver.SQLITE, null, db.toString(), null, null,
        "same file, never scanned", 1, 64, 30_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(shop, other), dir);
    gw = TestGateway.start(config, null);
    OneOffScan.run(config, "shop");
    wiki = dir.resolve("wiki");
    Files.createDirectories(wiki);
    page("net-revenue", """
        ---
        title: Net revenue
        summary: How we compute net revenue from orders and refunds
        tags: [finance, kpi]
        connections: [shop]
        tables: [orders, payments]
        ---
        Net revenue is the sum of orders.total over orders whose status is paid, shipped or delivered,
        minus payments with status refunded. Cancelled orders never count.
        """);
    page("onboarding", """
        # Onboarding for analysts
        Ask discover_data first. Timestamps in the shop are local shop time, not UTC.
        """);
    page("crm-notes", """
        ---
        summary: Only for the other connection
        connections: [other]
        ---
        Refund handling in the other system differs.
        """);
  }

  private void page(String key, String text) throws Exception {
    Files.writeString(wiki.resolve(key + ".md"), text, StandardCharsets.UTF_8);
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

  private JsonObject discover(McpHttpClient c, JsonObject args) throws Exception {
    JsonObject r = c.callTool("discover_data", args).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    return r.getJsonObject("structuredContent");
  }

  private static String refId(JsonObject ref) {
    return "wiki".equals(ref.getString("kind")) ? "wiki:" + ref.getString("id") : ref.getString("id");
  }

  @Test
  void recallAtFiveOnAnalystQuestionsIsAtLeastNinetyPercent() throws Exception {
    McpHttpClient c = session();
    List<String[]> cases = new ArrayList<>();
    try (InputStream in = getClass().getResourceAsStream("/discovery-eval.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          cases.add(line.split("\t"));
        }
      }
    }
    assertTrue(cases.size() >= 30, "the evaluation needs at least 30 questions, has " + cases.size());
    int found = 0;
    List<String> missed = new ArrayList<>();
    for (String[] q : cases) {
      JsonArray refs = discover(c, new JsonObject().put("query", q[0]).put("connectionId", "shop").put("limit", 5))
          .getJsonArray("refs");
      List<String> top = refs.stream().map(o -> refId((JsonObject) o)).toList();
      boolean hit = List.of(q[1].split(",")).stream().anyMatch(top::contains);
      found += hit ? 1 : 0;
      if (!hit) {
        missed.add(q[0] + " -> expected " + q[1] + ", got " + top);
      }
    }
    double recall = (double) found / cases.size();
    System.out.printf("discover_data recall@5 = %.3f (%d/%d questions)%n", recall, found, cases.size());
    missed.forEach(m -> System.out.println("  missed: " + m));
    assertTrue(recall >= MIN_RECALL_AT_5, String.format("recall@5 %.3f < %.2f; missed: %s", recall,
        MIN_RECALL_AT_5, missed));
  }

  @Test
  void refsCarryTheSpecShapeWithStoredSummariesAndBoundedSnippets() throws Exception {
    McpHttpClient c = session();
    JsonArray refs = discover(c, new JsonObject().put("query", "order status").put("connectionId", "shop"))
        .getJsonArray("refs");
    JsonObject status = refs.stream().map(o -> (JsonObject) o)
        .filter(r -> "orders.status".equals(r.getString("id"))).findFirst().orElseThrow();
    assertEquals("column", status.getString("kind"));
    assertEquals("shop", status.getString("connectionId"));
    assertEquals("status", status.getString("columnName"));
    assertEquals(new JsonObject().put("catalog", null).put("db", "main").put("name", "orders"),
        status.getJsonObject("tableRef"));
    assertEquals("Order status: pending, paid, shipped, delivered, cancelled or refunded.",
        status.getString("summary"));
    assertEquals("name", status.getString("matchedOn"));
    assertEquals("TEXT", status.getString("snippet"));
    for (Object o : refs) {
      JsonObject r = (JsonObject) o;
      double score = r.getDouble("score");
      assertTrue(score > 0 && score <= 1, r.encode());
      assertTrue(r.getString("snippet") == null || r.getString("snippet").length() <= 200, r.encode());
    }
    JsonObject berlin = discover(c, new JsonObject().put("query", "Berlin").put("kinds", new JsonArray().add("column")))
        .getJsonArray("refs").getJsonObject(0);
    assertEquals("customers.city", berlin.getString("id"));
    assertEquals("sample_value", berlin.getString("matchedOn"));
    assertTrue(berlin.getString("snippet").startsWith("TEXT · samples: Berlin"), berlin.getString("snippet"));
    JsonObject table = discover(c, new JsonObject().put("query", "clickstream").put("kinds",
        new JsonArray().add("table"))).getJsonArray("refs").getJsonObject(0);
    assertEquals("web_events", table.getString("id"));
    assertEquals("comment", table.getString("matchedOn"));
  }

  @Test
  void withoutConnectionOrKindsEverythingIsSearched() throws Exception {
    JsonObject all = discover(session(), new JsonObject().put("query", "custmer emial").put("limit", 3));
    assertEquals("customers.email", all.getJsonArray("refs").getJsonObject(0).getString("id"), all.encode());
    assertEquals(new JsonArray().add("other"), all.getJsonArray("unscanned"));
  }

  @Test
  void unscannedConnectionsAreNamedAndWikiScopesAreRespected() throws Exception {
    McpHttpClient c = session();
    JsonObject other = discover(c, new JsonObject().put("query", "refund").put("connectionId", "other"));
    assertEquals(new JsonArray().add("other"), other.getJsonArray("unscanned"));
    List<String> ids = other.getJsonArray("refs").stream().map(o -> refId((JsonObject) o)).toList();
    assertTrue(ids.contains("wiki:crm-notes"), ids.toString());
    assertFalse(ids.contains("wiki:net-revenue"), "a page scoped to shop must not show for other: " + ids);
    assertTrue(ids.stream().allMatch(id -> id.startsWith("wiki:")), "other has no snapshot: " + ids);

    JsonObject pages = c.callTool("wiki_search", new JsonObject().put("query", "refund").put("connectionId", "shop"))
        .getJsonObject("result").getJsonObject("structuredContent");
    List<String> keys = pages.getJsonArray("pages").stream().map(o -> ((JsonObject) o).getString("key")).toList();
    // the dense lane may add pages near in meaning below it (another test adds one on loyalty tiers)
    assertEquals("net-revenue", keys.get(0), keys.toString());
    assertFalse(keys.contains("crm-notes"), "a page scoped to other must not show for shop: " + keys);
    JsonObject all = c.callTool("wiki_search", new JsonObject().put("query", "refund"))
        .getJsonObject("result").getJsonObject("structuredContent");
    List<String> allKeys = all.getJsonArray("pages").stream().map(o -> ((JsonObject) o).getString("key")).toList();
    assertTrue(allKeys.containsAll(List.of("net-revenue", "crm-notes")), all.encode());
    JsonObject unscoped = c.callTool("wiki_search", new JsonObject().put("query", "onboarding analysts")
        .put("connectionId", "other")).getJsonObject("result").getJsonObject("structuredContent");
    assertEquals("onboarding", unscoped.getJsonArray("pages").getJsonObject(0).getString("key"));
  }

  @Test
  void dictionaryMissesSayWhyPerConnection() throws Exception {
    JsonObject s = session().callTool("dictionary_search", new JsonObject().put("values", new JsonArray()
        .add("Berlin").add("zz-not-a-value"))).getJsonObject("result").getJsonObject("structuredContent");
    assertEquals(List.of("shop:ready", "other:no_profile_artifact"), s.getJsonArray("searched").stream()
        .map(o -> ((JsonObject) o).getString("connectionId") + ":" + ((JsonObject) o).getString("status")).toList());
    JsonObject otherCoverage = s.getJsonArray("searched").getJsonObject(1).getJsonObject("coverage");
    assertEquals(0, otherCoverage.getInteger("profiledColumns"));
    assertNull(otherCoverage.getString("syncId"));
    JsonObject berlin = s.getJsonArray("results").getJsonObject(0);
    assertEquals("shop", berlin.getJsonArray("matches").getJsonObject(0).getString("connectionId"));
    assertEquals(new JsonArray().add(new JsonObject().put("connectionId", "other").put("reason", "no_profile_artifact")),
        berlin.getJsonArray("misses"));
    assertEquals(List.of("shop:value_not_in_sample", "other:no_profile_artifact"),
        s.getJsonArray("results").getJsonObject(1).getJsonArray("misses").stream()
            .map(o -> ((JsonObject) o).getString("connectionId") + ":" + ((JsonObject) o).getString("reason")).toList());
  }

  @Test
  void wikiReadServesFrontmatterAndBodyAndRefusesUnsafeKeys() throws Exception {
    McpHttpClient c = session();
    JsonObject page = c.callTool("wiki_read", new JsonObject().put("key", "net-revenue"))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertEquals("Net revenue", page.getString("title"));
    assertEquals(new JsonArray().add("finance").add("kpi"), page.getJsonArray("tags"));
    assertEquals(new JsonArray().add("orders").add("payments"), page.getJsonArray("tables"));
    assertTrue(page.getString("body").startsWith("Net revenue is the sum"), page.getString("body"));
    JsonObject onboarding = c.callTool("wiki_read", new JsonObject().put("key", "onboarding"))
        .getJsonObject("result").getJsonObject("structuredContent");
    assertEquals("Onboarding for analysts", onboarding.getString("title"));
    assertNull(onboarding.getString("summary"));
    for (String bad : List.of("../sluice", "a/b", ".hidden", "x..y")) {
      JsonObject r = c.callTool("wiki_read", new JsonObject().put("key", bad)).getJsonObject("result");
      assertTrue(r.getBoolean("isError"), bad);
      assertEquals("invalid_argument", McpHttpClient.errorBody(r).getString("error_type"), bad);
    }
    JsonObject missing = c.callTool("wiki_read", new JsonObject().put("key", "net-revenu")).getJsonObject("result");
    assertEquals("not_found", McpHttpClient.errorBody(missing).getString("error_type"));
    assertEquals(new JsonArray().add("net-revenue"),
        McpHttpClient.errorBody(missing).getJsonArray("suggestions"));
  }

  @Test
  void aNewWikiPageIsSearchableOnTheNextCall() throws Exception {
    McpHttpClient c = session();
    page("loyalty", "---\nsummary: Loyalty tiers\n---\nPlatinum members get free shipping.\n");
    JsonArray refs = discover(c, new JsonObject().put("query", "platinum members").put("kinds",
        new JsonArray().add("wiki"))).getJsonArray("refs");
    assertEquals("loyalty", refs.getJsonObject(0).getString("id"));
    assertEquals("body", refs.getJsonObject(0).getString("matchedOn"));
    assertTrue(refs.getJsonObject(0).getString("snippet").contains("Platinum"));
  }
}
