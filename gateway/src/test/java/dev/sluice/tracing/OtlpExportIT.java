package dev.sluice.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.GatewayJar;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged gateway with the standard OTEL_* variables exports its spans over OTLP
 * http/protobuf to a receiver the test runs: a tools/call arrives as a span naming the tool, with
 * its attributes, the HTTP request's span as parent and guard / pool wait / engine children.
 */
class OtlpExportIT {

  @TempDir
  Path dir;

  @Test
  void aToolCallArrivesAsASpanNamingTheTool() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver()) {
      Path cfg = Files.writeString(dir.resolve("ok.yaml"), "state:\n  dir: st\n");
      ProcessBuilder pb = new ProcessBuilder(GatewayJar.command("--config", cfg.toString(), "--port", "0"))
          .directory(dir.toFile()).redirectError(dir.resolve("gateway.err").toFile());
      Map<String, String> env = pb.environment();
      env.put("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint());
      env.put("OTEL_SERVICE_NAME", "sluice-otlp-it");
      env.put("OTEL_BSP_SCHEDULE_DELAY", "100");
      Process p = pb.start();
      try {
        String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(line != null && line.contains("serving MCP at"), line + Files.readString(dir.resolve("gateway.err")));
        McpHttpClient c = new McpHttpClient(line.substring(line.indexOf("http://")));
        c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
        JsonObject ok = c.callTool("sql_execution", new JsonObject().put("connectionId", "demo")
            .put("sql", "SELECT country FROM customers LIMIT 3")).getJsonObject("result");
        assertTrue(!ok.getBoolean("isError") && !ok.getJsonObject("structuredContent").containsKey("timings"),
            "the executor's timings are for spans, not for agents: " + ok.encode());
        c.callTool("sql_execution", new JsonObject().put("connectionId", "demo").put("sql", "SELECT * FROM nope"));

        OtlpReceiver.Received call = receiver.await("tools/call sql_execution", 20_000);
        assertEquals("sluice-otlp-it", call.resource().get("service.name"));
        assertEquals("sql_execution", call.attributes().get("sluice.tool"));
        assertEquals("demo", call.attributes().get("sluice.connection"));
        assertEquals("default", call.attributes().get("sluice.principal"));
        assertEquals("tools/call", call.attributes().get("mcp.method.name"));
        // two calls, two spans: find the successful one and the failed one
        List<OtlpReceiver.Received> calls = awaitCount("tools/call sql_execution", 2, receiver);
        OtlpReceiver.Received good = calls.stream().filter(s -> "ok".equals(s.attributes().get("sluice.outcome")))
            .findFirst().orElseThrow(() -> new AssertionError(calls.toString()));
        assertEquals(3L, good.attributes().get("sluice.rows"));
        OtlpReceiver.Received bad = calls.stream().filter(s -> "error".equals(s.attributes().get("sluice.outcome")))
            .findFirst().orElseThrow(() -> new AssertionError(calls.toString()));
        assertEquals("table_not_found", bad.attributes().get("error.type"));

        OtlpReceiver.Received http = receiver.spans().stream()
            .filter(s -> s.spanId().equals(good.parentSpanId())).findFirst()
            .orElseThrow(() -> new AssertionError("the tools/call span's parent is not exported: " + receiver.spans()));
        assertEquals("POST /mcp", http.name());
        assertEquals(200L, http.attributes().get("http.response.status_code"));
        assertEquals(http.traceId(), good.traceId());

        for (String child : List.of("sluice.guard", "sluice.pool_wait", "sluice.engine")) {
          OtlpReceiver.Received s = receiver.spans().stream()
              .filter(x -> x.name().equals(child) && x.parentSpanId().equals(good.spanId())).findFirst()
              .orElseThrow(() -> new AssertionError("no " + child + " under the call: " + receiver.spans()));
          assertTrue(s.startNanos() >= good.startNanos() && s.endNanos() >= s.startNanos(), s.toString());
        }
      } finally {
        p.destroy();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      }
    }
  }

  private static List<OtlpReceiver.Received> awaitCount(String name, int n, OtlpReceiver r) throws Exception {
    long until = System.currentTimeMillis() + 20_000;
    List<OtlpReceiver.Received> found;
    do {
      found = r.spans().stream().filter(s -> s.name().equals(name)).toList();
      if (found.size() >= n) {
        return found;
      }
      Thread.sleep(50);
    } while (System.currentTimeMillis() < until);
    throw new AssertionError("expected " + n + " spans named " + name + ", got " + found);
  }
}
