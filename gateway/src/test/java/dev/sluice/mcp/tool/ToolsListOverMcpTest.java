package dev.sluice.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * tools/list of the default tool set over real HTTP: what every agent session pays before its
 * first call, so it has a budget; and what SDK clients compile, so it carries nothing but schema.
 */
class ToolsListOverMcpTest {

  /** Characters of the tools/list result for the default tool set (docs/protocol.md states it). */
  static final int BUDGET_CHARS = 16_000;

  static final List<String> DEFAULT_TOOLS = List.of("connection_list", "discover_data", "entity_details",
      "dictionary_search", "sql_dialect_notes", "sql_execution", "sql_explain", "sql_compare", "query_cancel",
      "wiki_search", "wiki_read", "memory_ingest", "memory_ingest_status", "approved_query_list",
      "execute_approved_query", "sl_read_source", "sl_query");

  @Test
  void theDefaultToolSetFitsItsBudgetAndPublishesOnlySchema() throws Exception {
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("tools-list")), null)) {
      McpHttpClient c = gw.client();
      c.initialize(ProtocolRevision.LATEST);
      JsonObject first = c.call("tools/list", new JsonObject()).getJsonObject("result");
      List<String> names = first.getJsonArray("tools").stream().map(t -> ((JsonObject) t).getString("name")).toList();
      assertEquals(DEFAULT_TOOLS, names);

      int chars = first.encode().length();
      System.out.printf("tools/list, default tool set: %d tools, %,d characters (budget %,d)%n", names.size(), chars,
          BUDGET_CHARS);
      assertTrue(chars <= BUDGET_CHARS, "tools/list is " + chars + " characters, over its budget of " + BUDGET_CHARS
          + ": shorten descriptions or schemas (docs/protocol.md)");

      List<String> problems = new ArrayList<>();
      first.getJsonArray("tools").forEach(t -> problems.addAll(PublishedToolRules.violations((JsonObject) t)));
      assertTrue(problems.isEmpty(), String.join("\n", problems));

      // arguments are validated against the compiled schemas; what is published must not change
      c.callTool("connection_list", new JsonObject());
      c.callTool("discover_data", new JsonObject().put("query", 42));
      c.callTool("entity_details", new JsonObject().put("connectionId", "x")
          .put("entities", new io.vertx.core.json.JsonArray().add(new JsonObject().put("table", new JsonObject()))));
      assertEquals(first.encode(), c.call("tools/list", new JsonObject()).getJsonObject("result").encode());
    }
  }

  /**
   * 2025-03-26 has no structured output: its sessions are told of no outputSchema (a client
   * holding one would wait for structuredContent and fail the call) and get text results.
   */
  @Test
  void a2025_03_26SessionSeesNoOutputSchemaAndGetsTextResults() throws Exception {
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("tools-list-old")), null)) {
      McpHttpClient c = gw.client();
      c.initialize(ProtocolRevision.V2025_03_26);
      JsonObject listed = c.call("tools/list", new JsonObject()).getJsonObject("result");
      assertEquals(DEFAULT_TOOLS.size(), listed.getJsonArray("tools").size());
      listed.getJsonArray("tools").forEach(t -> assertFalse(((JsonObject) t).containsKey("outputSchema"), t.toString()));
      JsonObject result = c.callTool("connection_list", new JsonObject()).getJsonObject("result");
      assertFalse(result.getBoolean("isError"), result.encode());
      assertFalse(result.containsKey("structuredContent"), result.encode());

      McpHttpClient latest = gw.client();
      latest.initialize(ProtocolRevision.LATEST);
      latest.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools")
          .forEach(t -> assertTrue(((JsonObject) t).containsKey("outputSchema"), t.toString()));
    }
  }
}
