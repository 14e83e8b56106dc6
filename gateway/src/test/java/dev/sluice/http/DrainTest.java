package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestTools;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A node leaving gracefully: no new sessions, open sessions served, in-flight calls finish within a bound. */
class DrainTest {

  private static TestGateway start(AtomicInteger cancellations) throws Exception {
    return TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("sluice-drain")), f -> f.tools().register(TestTools.ticker())
        .register(TestTools.hang(cancellations)));
  }

  @Test
  void drainingRefusesNewSessionsAndLetsRunningCallsFinish() throws Exception {
    try (TestGateway gw = start(new AtomicInteger())) {
      McpHttpClient open = gw.client();
      open.initialize(ProtocolRevision.LATEST);
      CompletableFuture<JsonObject> slow = CompletableFuture.supplyAsync(() -> {
        try {
          return open.callTool("test_ticker", new JsonObject().put("steps", 8).put("intervalMs", 100));
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      while (gw.gateway.metrics().callsInFlight() == 0) {
        Thread.sleep(10);
      }
      CompletableFuture<Integer> drained = gw.gateway.drain(10_000).toCompletionStage().toCompletableFuture();

      McpHttpClient fresh = gw.client();
      McpHttpClient.Reply refused = fresh.post(McpHttpClient.request(1, "initialize", new JsonObject()
          .put("protocolVersion", ProtocolRevision.LATEST).put("capabilities", new JsonObject())
          .put("clientInfo", new JsonObject().put("name", "t").put("version", "1"))), Map.of());
      assertEquals(503, refused.status());
      assertEquals("1", refused.header("Retry-After"));
      assertTrue(refused.json().getJsonObject("error").getString("message").contains("draining"), refused.body());
      McpHttpClient.Reply health = fresh.getPath("/health", Map.of());
      assertEquals(503, health.status(), "load balancers take a draining node out of rotation");
      assertEquals("draining", health.json().getString("status"));

      // the session that was open keeps being served while the node drains
      assertFalse(open.callTool("connection_list", new JsonObject()).getJsonObject("result").getBoolean("isError"));
      assertFalse(drained.isDone(), "the ticker is still running");
      JsonObject result = slow.get(30, TimeUnit.SECONDS).getJsonObject("result");
      assertFalse(result.getBoolean("isError"), result.encode());
      assertEquals(0, drained.get(10, TimeUnit.SECONDS), "drained once the last call ended");
    }
  }

  @Test
  void aCallThatOutlivesTheBoundIsReportedAndCancelledByTheStop() throws Exception {
    AtomicInteger cancellations = new AtomicInteger();
    TestGateway gw = start(cancellations);
    McpHttpClient open = gw.client();
    open.initialize(ProtocolRevision.LATEST);
    CompletableFuture.runAsync(() -> {
      try {
        open.callTool("test_hang", new JsonObject());
      } catch (Exception ignored) {
        // the stop cuts it off
      }
    });
    while (gw.gateway.metrics().callsInFlight() == 0) {
      Thread.sleep(10);
    }
    long t0 = System.nanoTime();
    int left = gw.gateway.drain(300).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(1, left);
    assertTrue(ms >= 250 && ms < 5_000, "the bound holds: " + ms + " ms");
    gw.close();
    assertEquals(1, cancellations.get(), "stopping cancels what the drain left running");
  }
}
