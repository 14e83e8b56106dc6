package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
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
 * The official TypeScript SDK 2.x client ({@code @modelcontextprotocol/client}) pinned to revision
 * 2026-07-28 against a real gateway: it must find 2026-07-28 offered by server/discover, then takes
 * every tool through its success path and each of its error types (the same tour as the 2025-era
 * {@link ToolTourIT}), without a session, over Streamable HTTP and over stdio.
 */
class SdkV2ClientIT {

  @Test
  void pinnedClientOverHttpSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    try (TestGateway gw = TestGateway.start(ConfigLoader.load(tour.config, Map.of()), null)) {
      JsonObject transport = new JsonObject().put("kind", "http").put("url", gw.url()).put("sessions", new JsonObject()
          .put("main", ToolTour.WRITER).put("reader", ToolTour.READER).put("throttled", ToolTour.THROTTLED));
      JsonObject summary = tour.run("sdk2-client-tour.mjs", transport, tour.calls("http"));
      ToolTour.assertEveryToolSucceeded("TypeScript SDK 2.x pinned to 2026-07-28", summary, Set.of());
    }
  }

  @Test
  void pinnedClientOverStdioSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    Path jar = NodeClients.projectRoot().resolve("gateway/target/sluice.jar");
    assertTrue(Files.exists(jar), "the fat jar is built before integration tests");
    ToolTour tour = ToolTour.prepare();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    JsonObject transport = new JsonObject().put("kind", "stdio").put("command", java)
        .put("args", new JsonArray().add("-jar").add(jar.toString()).add("stdio").add("--config")
            .add(tour.config.toString()));
    JsonObject summary = tour.run("sdk2-client-tour.mjs", transport, tour.calls("stdio"));
    // stdio serves the default principal, which never writes: sql_write answers permission_denied there
    ToolTour.assertEveryToolSucceeded("TypeScript SDK 2.x pinned to 2026-07-28", summary, Set.of("sql_write"));
  }
}
