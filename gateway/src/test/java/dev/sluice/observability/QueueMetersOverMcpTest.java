package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Why a call waited, over real MCP: {@code queuedMs} in the result, per-principal queue meters on /metrics. */
class QueueMetersOverMcpTest {

  private static final String TOKEN = "queue-token";

  @Test
  void resultsCarryQueuedMsAndMetricsCountWaitsPerPrincipal() throws Exception {
    Path dir = Files.createTempDirectory("sluice-queue-meters");
    try (TestGateway gw = TestGateway.onSqliteTable(dir, TOKEN)) {
      McpHttpClient c = gw.session(TOKEN);
      for (int i = 0; i < 3; i++) {
        // the client checks structuredContent against sql_execution's outputSchema (queuedMs: integer)
        JsonObject r = c.toolResult("sql_execution", new JsonObject().put("connectionId", "db")
            .put("sql", "SELECT count(*) FROM t"));
        long queued = r.getJsonObject("structuredContent").getLong("queuedMs");
        assertTrue(queued >= 0 && queued < 10_000, r.encode());
      }
      String metrics = c.getPath("/metrics", Map.of("Authorization", "Bearer " + TOKEN)).body();
      String labels = "connection=\"db\",principal=\"default\"";
      assertEquals(3.0, meter(metrics, "sluice_sql_queue_wait_seconds_count", labels), "one wait per call");
      assertEquals(0.0, meter(metrics, "sluice_sql_queue_depth", labels), "nothing waiting now");
    }
  }

  private static double meter(String scrape, String name, String labels) {
    Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} ([0-9.eE+-]+)$").matcher(scrape);
    while (m.find()) {
      if (m.group(1).contains(labels)) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new AssertionError(name + "{" + labels + "} is not on /metrics:\n" + scrape);
  }
}
