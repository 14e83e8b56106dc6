package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.testing.GatewayJar;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A real third-party client — the official TypeScript MCP SDK — over Streamable HTTP and stdio. */
class TypeScriptSdkClientIT {

  @Test
  void sdkClientOverStreamableHttp() throws Exception {
    NodeClients.node();
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("sdk")), null)) {
      NodeClients.Run r = NodeClients.run(90, "sdk-client-http.mjs", gw.url());
      assertEquals(0, r.exit(), r.output());
      assertSummary(r.output());
    }
  }

  @Test
  void sdkClientOverStdio() throws Exception {
    NodeClients.node();
    Path jar = GatewayJar.path(); // asserts the fat jar is built
    Path state = Files.createTempDirectory("sdk-stdio");
    Path config = state.resolve("sluice.yaml");
    Files.writeString(config, "state:\n  dir: " + state + "\n");
    NodeClients.Run r = NodeClients.run(120, "sdk-client-stdio.mjs", GatewayJar.java(), GatewayJar.JIT, jar.toString(), "stdio",
        "--config", config.toString());
    assertEquals(0, r.exit(), r.output());
    assertSummary(r.output());
  }

  /** Issue 7's acceptance: a note ingested by a third-party client is found, within its scope only. */
  @Test
  void sdkClientIngestsANoteTheSearchToolsThenFind() throws Exception {
    NodeClients.node();
    Path state = Files.createTempDirectory("sdk-memory");
    java.util.List<dev.sluice.config.ConnectionConfig> connections = List.of(
        new dev.sluice.config.ConnectionConfig("shop", dev.sluice.sql.Driver.SQLITE, null,
            state.resolve("none.sqlite").toString(), null, null, null, 1, 8, 10_000, 10, 10),
        new dev.sluice.config.ConnectionConfig("other", dev.sluice.sql.Driver.SQLITE, null,
            state.resolve("none.sqlite").toString(), null, null, null, 1, 8, 10_000, 10, 10));
    java.sql.DriverManager.getConnection("jdbc:sqlite:" + state.resolve("none.sqlite")).close();
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), connections, state), null)) {
      NodeClients.Run r = NodeClients.run(90, "sdk-client-memory.mjs", gw.url(), "shop", "other");
      assertEquals(0, r.exit(), r.output());
      JsonObject summary = new JsonObject(r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1));
      assertEquals("completed", summary.getString("status"), summary.encode());
      assertEquals("returns-window", summary.getString("key"));
      assertTrue(summary.getBoolean("wikiSearchFound") && summary.getBoolean("discoverFound")
          && summary.getBoolean("invisibleElsewhere"), summary.encode());
    }
  }

  private static void assertSummary(String output) {
    JsonObject summary = new JsonObject(output.substring(output.indexOf('{'), output.lastIndexOf('}') + 1));
    assertTrue(summary.encode().contains("connection_list"), summary.encode());
    assertTrue(summary.encode().contains("sql_execution"), summary.encode());
  }
}
