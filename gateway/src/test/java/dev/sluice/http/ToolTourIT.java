package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.ToolTour;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every tool, on its success path and each of its error types, through real clients: the official
 * TypeScript SDK over Streamable HTTP and over stdio (sdk-client-tour.mjs), and the Inspector CLI
 * (inspector-tour.mjs). The SDK checks each structuredContent against the tool's outputSchema, so
 * an error is only seen by the agent if it comes back in band, never as a client exception.
 */
class ToolTourIT {

  @Test
  void typeScriptSdkOverHttpSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    try (TestGateway gw = TestGateway.start(ConfigLoader.load(tour.config, Map.of()), null)) {
      JsonObject transport = new JsonObject().put("kind", "http").put("url", gw.url()).put("sessions", new JsonObject()
          .put("main", ToolTour.WRITER).put("reader", ToolTour.READER).put("throttled", ToolTour.THROTTLED));
      JsonObject summary = run(tour, transport, tour.calls("http"));
      assertEveryToolSucceeded(summary, Set.of());
    }
  }

  @Test
  void typeScriptSdkOverStdioSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    JsonObject transport = tour.stdioTransport();
    JsonObject summary = run(tour, transport, tour.calls("stdio"));
    // stdio serves the default principal, which never writes: sql_write answers permission_denied there
    assertEveryToolSucceeded(summary, Set.of("sql_write"));
  }

  @Test
  void inspectorCliListsAndCallsEveryTool() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    try (TestGateway gw = TestGateway.start(ConfigLoader.load(tour.config, Map.of()), null)) {
      awaitCatalog(gw);
      Path calls = tour.dir.resolve("inspector-calls.json");
      Files.writeString(calls, tour.inspectorCalls().encodePrettily());
      NodeClients.Run r = NodeClients.run(300, "inspector-tour.mjs", gw.url(), ToolTour.WRITER, calls.toString());
      assertEquals(0, r.exit(), r.output());
      JsonObject summary = json(r.output());
      System.out.printf("Inspector CLI: %d tools listed, %d calls, all as expected%n",
          summary.getJsonArray("tools").size(), summary.getJsonArray("calls").size());
      assertTrue(summary.getJsonArray("uncalled").isEmpty(), summary.encode());
    }
  }

  private static JsonObject run(ToolTour tour, JsonObject transport, JsonArray calls) throws Exception {
    return tour.run("sdk-client-tour.mjs", transport, calls);
  }

  private static void assertEveryToolSucceeded(JsonObject summary, Set<String> noSuccess) {
    ToolTour.assertEveryToolSucceeded("TypeScript SDK", summary, noSuccess);
  }

  private static void awaitCatalog(TestGateway gw) throws Exception {
    McpHttpClient c = gw.session(ToolTour.WRITER);
    for (int i = 0; i < 300; i++) {
      JsonObject r = c.toolResult("entity_details", new JsonObject().put("connectionId", "demo")
          .put("entities", new JsonArray().add(new JsonObject().put("table", "orders"))));
      if (!r.getBoolean("isError")) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the catalog scan of demo did not finish in 30 s");
  }

  private static JsonObject json(String output) {
    return ToolTour.json(output);
  }
}
