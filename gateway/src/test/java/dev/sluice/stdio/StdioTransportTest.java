package dev.sluice.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** MCP over stdio on a started gateway, through real pipes, as a client that pipelines writes. */
class StdioTransportTest {

  @Test
  void aClientThatWritesInitializeInitializedAndToolsListAtOnceGetsEveryAnswer() throws Exception {
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("stdio")), null)) {
      PipedOutputStream stdin = new PipedOutputStream();
      PipedInputStream serverIn = new PipedInputStream(stdin, 1 << 16);
      PipedInputStream stdout = new PipedInputStream(1 << 20);
      OutputStream serverOut = new PipedOutputStream(stdout);
      Future<Void> served = new StdioTransport(gw.gateway, serverIn, serverOut).run();

      String lines = new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
          .put("params", new JsonObject().put("protocolVersion", ProtocolRevision.LATEST)
              .put("capabilities", new JsonObject())
              .put("clientInfo", new JsonObject().put("name", "pipelining").put("version", "1"))).encode()
          + "\n" + new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized").encode()
          + "\n" + new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/list").encode()
          + "\n" + new JsonObject().put("jsonrpc", "2.0").put("id", 3).put("method", "tools/call")
              .put("params", new JsonObject().put("name", "connection_list").put("arguments", new JsonObject()))
              .encode() + "\n";
      // one write: all four lines reach the transport before the first is answered
      stdin.write(lines.getBytes(StandardCharsets.UTF_8));
      stdin.flush();

      Map<Object, JsonObject> answers = new HashMap<>();
      BufferedReader out = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8));
      long deadline = System.currentTimeMillis() + 20_000;
      while (answers.size() < 3 && System.currentTimeMillis() < deadline) {
        JsonObject m = new JsonObject(out.readLine());
        if (m.containsKey("id")) {
          answers.put(m.getValue("id"), m);
        }
      }
      assertEquals(3, answers.size(), "answers: " + answers);
      answers.values().forEach(a -> assertFalse(a.containsKey("error"), a.encode()));
      assertEquals(ProtocolRevision.LATEST, answers.get(1).getJsonObject("result").getString("protocolVersion"));
      assertTrue(answers.get(2).getJsonObject("result").getJsonArray("tools").size() > 10, answers.get(2).encode());
      assertFalse(answers.get(3).getJsonObject("result").getBoolean("isError"), answers.get(3).encode());

      stdin.close();
      served.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      assertEquals(0, gw.gateway.metrics().openSessions(), "closing stdin ends the session");
    }
  }
}
