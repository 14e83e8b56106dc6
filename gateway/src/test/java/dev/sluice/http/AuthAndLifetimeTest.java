package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer tokens on every /mcp method, and idle session expiry. */
class AuthAndLifetimeTest {

  @TempDir
  Path dir;

  @Test
  void tokenIsRequiredOnEveryMcpMethodWhenConfigured() throws Exception {
    ServerConfig server = ServerConfig.defaults().withToken("s3cret-token");
    try (TestGateway gw = TestGateway.start(TestGateway.config(server, List.of(), dir), null)) {
      McpHttpClient c = gw.client();
      McpHttpClient.Reply r = c.post(McpHttpClient.request(1, "initialize", new JsonObject()), Map.of());
      assertEquals(401, r.status());
      assertEquals("Bearer", r.header("WWW-Authenticate"));
      r = c.post(McpHttpClient.request(1, "initialize", new JsonObject()),
          Map.of("Authorization", "Bearer wrong"));
      assertEquals(401, r.status());
      c.token = "s3cret-token";
      c.initialize(ProtocolRevision.LATEST);
      String sid = c.sessionId;
      McpHttpClient anonymous = gw.client();
      anonymous.sessionId = sid;
      assertEquals(401, anonymous.send("DELETE", Map.of()).status());
      assertEquals(401, anonymous.getStream(Map.of()).statusCode());
      assertEquals(401, anonymous.post(McpHttpClient.request(2, "ping", null), Map.of()).status());
      assertEquals(401, anonymous.getPath("/metrics", Map.of()).status());
      // liveness stays open to probes; it reveals no data
      assertEquals(200, anonymous.getPath("/health", Map.of()).status());
      assertEquals(200, c.post(McpHttpClient.request(3, "ping", null), Map.of()).status());
      assertEquals(200, c.send("DELETE", Map.of()).status());
    }
  }

  @Test
  void idleSessionsExpire() throws Exception {
    ServerConfig server = ServerConfig.defaults().withSessionIdleTimeoutMs(1_000);
    try (TestGateway gw = TestGateway.start(TestGateway.config(server, List.of(), dir), null)) {
      McpHttpClient idle = gw.client();
      idle.initialize(ProtocolRevision.LATEST);
      McpHttpClient busy = gw.client();
      busy.initialize(ProtocolRevision.LATEST);
      long end = System.currentTimeMillis() + 3_500;
      while (System.currentTimeMillis() < end) {
        assertEquals(200, busy.post(McpHttpClient.request(busy.nextId(), "ping", null), Map.of()).status());
        Thread.sleep(200);
      }
      assertEquals(404, idle.post(McpHttpClient.request(1, "ping", null), Map.of()).status());
      assertEquals(200, busy.post(McpHttpClient.request(busy.nextId(), "ping", null), Map.of()).status());
      McpHttpClient.Reply metrics = busy.getPath("/metrics", Map.of());
      assertTrue(metrics.body().contains("sluice_sessions_open 1.0"), metrics.body());
    }
  }
}
