package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
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
    Path jar = NodeClients.projectRoot().resolve("gateway/target/sluice.jar");
    assertTrue(Files.exists(jar), "the fat jar is built before integration tests");
    Path state = Files.createTempDirectory("sdk-stdio");
    Path config = state.resolve("sluice.yaml");
    Files.writeString(config, "state:\n  dir: " + state + "\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    NodeClients.Run r = NodeClients.run(120, "sdk-client-stdio.mjs", java, jar.toString(), "stdio",
        "--config", config.toString());
    assertEquals(0, r.exit(), r.output());
    assertSummary(r.output());
  }

  private static void assertSummary(String output) {
    JsonObject summary = new JsonObject(output.substring(output.indexOf('{'), output.lastIndexOf('}') + 1));
    assertTrue(summary.encode().contains("connection_list"), summary.encode());
    assertTrue(summary.encode().contains("sql_execution"), summary.encode());
  }
}
