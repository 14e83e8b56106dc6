package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two principals with their own tokens and connections: each sees only its connections in every
 * tool, a session stays with the principal that opened it, and the audit names the principal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrincipalsOverMcpTest {

  private static final String ANALYST = Tokens.newToken();
  private static final String AUDITOR = Tokens.newToken();
  private TestGateway gw;
  private Path dir;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("sluice-principals");
    Path db = dir.resolve("shop.sqlite");
    DemoDataset.writeSqlite(db);
    ConnectionConfig shop = new ConnectionConfig("shop", Driver.SQLITE, null, db.toString(), null, null, "shop",
        2, 64, 30_000, 1_000, 10_000);
    ConnectionConfig crm = new ConnectionConfig("crm", Driver.SQLITE, null, db.toString(), null, null, "crm",
        1, 64, 30_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(shop, crm), dir).withPrincipals(List.of(
        new PrincipalConfig("analyst", List.of(Tokens.sha256Hex(ANALYST)), List.of("shop")),
        new PrincipalConfig("auditor", List.of(Tokens.sha256Hex(AUDITOR)), List.of())));
    OneOffScan.run(config, "shop");
    OneOffScan.run(config, "crm");
    Files.createDirectories(dir.resolve("wiki"));
    Files.writeString(dir.resolve("wiki/crm-secrets.md"), "---\nconnections: [crm]\n---\nCRM churn scores are secret.\n");
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

  @Test
  void eachPrincipalSeesOnlyItsConnectionsInEveryTool() throws Exception {
    McpHttpClient analyst = as(ANALYST);
    McpHttpClient auditor = as(AUDITOR);
    List<String> mine = analyst.toolResult("connection_list", new JsonObject()).getJsonObject("structuredContent")
        .getJsonArray("connections").stream().map(o -> ((JsonObject) o).getString("id")).toList();
    assertEquals(List.of("shop"), mine);
    assertEquals(2, auditor.toolResult("connection_list", new JsonObject()).getJsonObject("structuredContent")
        .getJsonArray("connections").size());

    JsonObject denied = analyst.toolResult("sql_execution", new JsonObject().put("connectionId", "crm")
        .put("sql", "SELECT 1"));
    assertTrue(denied.getBoolean("isError"));
    assertEquals("unknown connectionId 'crm'; configured connections: [shop]",
        McpHttpClient.errorBody(denied).getString("message"), "denied looks like absent");
    for (String tool : List.of("entity_details", "sql_dialect_notes")) {
      JsonObject args = new JsonObject().put("connectionId", "crm");
      if (tool.equals("entity_details")) {
        args.put("entities", new JsonArray().add(new JsonObject().put("table", "orders")));
      }
      assertEquals("invalid_argument", McpHttpClient.errorBody(analyst.toolResult(tool, args))
          .getString("error_type"), tool);
    }

    JsonArray refs = analyst.toolResult("discover_data", new JsonObject().put("query", "orders customers churn")
        .put("limit", 50)).getJsonObject("structuredContent").getJsonArray("refs");
    assertFalse(refs.isEmpty());
    assertTrue(refs.stream().map(o -> (JsonObject) o).allMatch(r -> r.getString("connectionId") == null
        || r.getString("connectionId").equals("shop")), refs.encode());
    assertTrue(refs.stream().noneMatch(o -> "crm-secrets".equals(((JsonObject) o).getString("id"))));
    JsonArray auditorRefs = auditor.toolResult("discover_data", new JsonObject().put("query", "churn scores"))
        .getJsonObject("structuredContent").getJsonArray("refs");
    assertEquals("crm-secrets", auditorRefs.getJsonObject(0).getString("id"));

    JsonObject dict = analyst.toolResult("dictionary_search", new JsonObject().put("values", new JsonArray().add("Berlin")))
        .getJsonObject("structuredContent");
    assertEquals(1, dict.getJsonArray("searched").size());
    assertEquals("shop", dict.getJsonArray("searched").getJsonObject(0).getString("connectionId"));

    assertTrue(analyst.toolResult("wiki_search", new JsonObject().put("query", "churn")).getJsonObject("structuredContent")
        .getJsonArray("pages").isEmpty());
    assertEquals("not_found", McpHttpClient.errorBody(analyst.toolResult("wiki_read", new JsonObject().put("key", "crm-secrets"))).getString("error_type"));
    assertFalse(auditor.toolResult("wiki_read", new JsonObject().put("key", "crm-secrets")).getBoolean("isError"));
    assertEquals("invalid_argument", McpHttpClient.errorBody(analyst.toolResult("memory_ingest", new JsonObject()
        .put("content", "# Note\ntext").put("connectionId", "crm")))
        .getString("error_type"));
  }

  @Test
  void anIngestRunIsVisibleToItsOwnPrincipalOnly() throws Exception {
    McpHttpClient analyst = as(ANALYST);
    McpHttpClient auditor = as(AUDITOR);
    String runId = analyst.toolResult("memory_ingest", new JsonObject().put("content", "# Refund policy\nRefunds within 30 "
        + "days.\n").put("connectionId", "shop")).getJsonObject("structuredContent").getString("runId");
    JsonObject mine = analyst.toolResult("memory_ingest_status", new JsonObject().put("runId", runId));
    assertFalse(mine.getBoolean("isError"), mine.encode());
    assertEquals(runId, mine.getJsonObject("structuredContent").getString("runId"));
    JsonObject theirs = auditor.toolResult("memory_ingest_status", new JsonObject().put("runId", runId));
    assertTrue(theirs.getBoolean("isError"));
    assertEquals("not_found", McpHttpClient.errorBody(theirs).getString("error_type"));
  }

  @Test
  void tokensAreRequiredAndASessionStaysWithItsPrincipal() throws Exception {
    McpHttpClient nobody = gw.client();
    assertEquals(401, nobody.post(McpHttpClient.request(1, "initialize", new JsonObject()), Map.of()).status());
    nobody.token = "sluice_not-a-real-token-at-all";
    assertEquals(401, nobody.post(McpHttpClient.request(1, "initialize", new JsonObject()), Map.of()).status());

    McpHttpClient analyst = as(ANALYST);
    McpHttpClient hijack = gw.client();
    hijack.sessionId = analyst.sessionId;
    hijack.protocolVersion = analyst.protocolVersion;
    hijack.token = AUDITOR;
    McpHttpClient.Reply r = hijack.post(McpHttpClient.request(5, "tools/call", new JsonObject()
        .put("name", "connection_list").put("arguments", new JsonObject())), Map.of("Accept", "application/json, text/event-stream"));
    assertEquals(403, r.status(), r.body());
    assertTrue(r.body().contains("belongs to another principal"), r.body());
    assertFalse(analyst.toolResult("connection_list", new JsonObject()).getBoolean("isError"));
  }

  @Test
  void theAuditNamesThePrincipal() throws Exception {
    McpHttpClient analyst = as(ANALYST);
    analyst.toolResult("sql_dialect_notes", new JsonObject().put("connectionId", "shop"));
    gw.gateway.audit().close();
    List<JsonObject> records = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("audit"))) {
      for (Path f : files.toList()) {
        Files.readAllLines(f).forEach(l -> records.add(new JsonObject(l)));
      }
    }
    assertTrue(records.stream().anyMatch(r -> "sql_dialect_notes".equals(r.getString("tool"))
        && "analyst".equals(r.getString("principal"))), records.toString());
    String raw = records.toString();
    assertFalse(raw.contains(ANALYST) || raw.contains(AUDITOR), "tokens never reach the audit");
  }
}
