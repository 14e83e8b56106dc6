package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.McpHttpClient.SseEvent;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestTools;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each Streamable HTTP transport rule, driven over real HTTP against a started gateway. The comment
 * on each test names the spec clause it pins.
 */
class StreamableHttpTransportTest {

  static final AtomicInteger CANCELLATIONS = new AtomicInteger();
  static TestGateway gw;

  @BeforeAll
  static void start(@TempDir Path dir) throws Exception {
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(), dir), f -> {
      f.tools().register(TestTools.ticker()).register(TestTools.hang(CANCELLATIONS)).register(TestTools.progress());
      for (int i = 0; i < 60; i++) {
        f.tools().register(TestTools.echo(String.format("test_echo_%02d", i)));
      }
    });
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
  }

  @Test
  void initializeAllocatesSessionAndNegotiatesRevision() throws Exception {
    for (String v : ProtocolRevision.SUPPORTED) {
      McpHttpClient c = gw.client();
      JsonObject result = c.initialize(v);
      assertEquals(v, result.getString("protocolVersion"));
      assertNotNull(c.sessionId);
      // session ids are visible ASCII and carry node and shard for routing
      assertTrue(c.sessionId.matches("[\\x21-\\x7E]+"), c.sessionId);
      assertEquals(3, c.sessionId.split("\\.").length);
      assertEquals("sluice", result.getJsonObject("serverInfo").getString("name"));
      assertTrue(result.getJsonObject("capabilities").containsKey("tools"));
    }
    McpHttpClient c = gw.client();
    assertEquals(ProtocolRevision.LATEST, c.initialize("1999-01-01").getString("protocolVersion"));
  }

  @Test
  void requestWithoutSessionIs400AndUnknownSessionIs404() throws Exception {
    McpHttpClient c = gw.client();
    McpHttpClient.Reply r = c.post(McpHttpClient.request(1, "tools/list", null), Map.of());
    assertEquals(400, r.status());
    assertEquals(-32600, r.json().getJsonObject("error").getInteger("code"));
    r = c.post(McpHttpClient.request(1, "tools/list", null), Map.of("Mcp-Session-Id", "nosuch.0.abc"));
    assertEquals(404, r.status());
    r = c.post(McpHttpClient.request(1, "tools/list", null), Map.of("Mcp-Session-Id", "garbage"));
    assertEquals(404, r.status());
  }

  @Test
  void deleteEndsTheSession() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    assertEquals(200, c.send("DELETE", Map.of()).status());
    assertEquals(404, c.post(McpHttpClient.request(9, "ping", null), Map.of()).status());
    assertEquals(404, c.send("DELETE", Map.of()).status());
  }

  @Test
  void notificationOnlyPostIs202() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    McpHttpClient.Reply r = c.post(McpHttpClient.notification("notifications/roots/list_changed", null), Map.of());
    assertEquals(202, r.status());
    assertEquals("", r.body());
  }

  @Test
  void otherMethodsAre405AndGetNeedsSession() throws Exception {
    McpHttpClient c = gw.client();
    McpHttpClient.Reply r = c.send("PUT", Map.of());
    assertEquals(405, r.status());
    assertNotNull(r.header("Allow"));
    HttpResponse<InputStream> g = c.getStream(Map.of());
    assertEquals(400, g.statusCode());
  }

  @Test
  void hostAndOriginAreValidatedEverywhere() throws Exception {
    McpHttpClient c = gw.client();
    McpHttpClient.Reply r = c.post(McpHttpClient.request(1, "initialize", new JsonObject()),
        Map.of("Origin", "http://evil.example"));
    assertEquals(403, r.status());
    assertEquals(403, c.getPath("/health", Map.of("Origin", "http://evil.example")).status());
    // our own origin (a page served from this host:port) passes; another local port does not
    assertEquals(200, c.getPath("/health", Map.of("Origin", "http://127.0.0.1:" + c.uri().getPort())).status());
    assertEquals(403, c.getPath("/health", Map.of("Origin", "http://127.0.0.1:1")).status());
    assertEquals(421, RawHttp.get(c.uri(), "/health", "Host: evil.example").status());
    assertEquals(421, RawHttp.get(c.uri(), "/mcp", "Host: evil.example:7878").status());
    assertEquals(200, RawHttp.get(c.uri(), "/health", "Host: localhost:1234").status());
    assertEquals(200, c.getPath("/health", Map.of()).status());
  }

  @Test
  void protocolVersionHeaderIsChecked() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    McpHttpClient.Reply r = c.post(McpHttpClient.request(5, "ping", null),
        Map.of("MCP-Protocol-Version", "2020-01-01"));
    assertEquals(400, r.status());
    assertTrue(r.body().contains("2020-01-01"));
    assertEquals(200, c.post(McpHttpClient.request(6, "ping", null), Map.of()).status());
  }

  @Test
  void acceptContentTypeAndParseErrors() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    assertEquals(406, c.post(McpHttpClient.request(1, "ping", null), Map.of("Accept", "application/json")).status());
    assertEquals(415, c.post(McpHttpClient.request(1, "ping", null), Map.of("Content-Type", "text/plain")).status());
    McpHttpClient.Reply r = c.post("{not json", Map.of());
    assertEquals(400, r.status());
    assertEquals(-32700, r.json().getJsonObject("error").getInteger("code"));
    r = c.post(new JsonObject().put("jsonrpc", "1.0").put("id", 1).put("method", "ping"), Map.of());
    assertEquals(400, r.status());
    assertEquals(-32600, r.json().getJsonObject("error").getInteger("code"));
    JsonObject unknown = c.call("no/such/method", null);
    assertEquals(-32601, unknown.getJsonObject("error").getInteger("code"));
  }

  @Test
  void batchesOnlyIn20250326() throws Exception {
    McpHttpClient modern = gw.client();
    modern.initialize(ProtocolRevision.V2025_06_18);
    JsonArray batch = new JsonArray().add(McpHttpClient.request(1, "ping", null))
        .add(McpHttpClient.request(2, "ping", null));
    assertEquals(400, modern.post(batch, Map.of()).status());

    McpHttpClient old = gw.client();
    old.initialize(ProtocolRevision.V2025_03_26);
    McpHttpClient.Reply r = old.post(batch, Map.of());
    assertEquals(200, r.status());
    assertEquals(2, r.jsonArray().size());
  }

  @Test
  void toolsListPaginatesWithOpaqueCursor() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject first = c.call("tools/list", null).getJsonObject("result");
    String cursor = first.getString("nextCursor");
    assertNotNull(cursor);
    assertEquals(50, first.getJsonArray("tools").size());
    JsonObject second = c.call("tools/list", new JsonObject().put("cursor", cursor)).getJsonObject("result");
    assertNull(second.getString("nextCursor"));
    int total = first.getJsonArray("tools").size() + second.getJsonArray("tools").size();
    assertEquals(gw.gateway.tools().names().size(), total);
    JsonObject bad = c.call("tools/list", new JsonObject().put("cursor", "bogus"));
    assertEquals(-32602, bad.getJsonObject("error").getInteger("code"));
  }

  @Test
  void toolErrorsAreInBandAndUnknownToolIsProtocolError() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject unknown = c.callTool("no_such_tool", new JsonObject());
    assertEquals(-32602, unknown.getJsonObject("error").getInteger("code"));
    JsonObject invalid = c.callTool("test_echo_00", new JsonObject().put("text", 42));
    JsonObject result = invalid.getJsonObject("result");
    assertTrue(result.getBoolean("isError"));
    assertEquals("invalid_argument", McpHttpClient.errorBody(result).getString("error_type"));
    assertTrue(McpHttpClient.errorBody(result).getString("message").contains("/text"));
    JsonObject ok = c.callTool("test_echo_00", new JsonObject().put("text", "hi"));
    assertFalse(ok.getJsonObject("result").getBoolean("isError"));
  }

  @Test
  void progressStreamsOverSseBeforeTheResult() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    assertEquals(200, c.post(McpHttpClient.request(c.nextId(), "logging/setLevel",
        new JsonObject().put("level", "info")), Map.of()).status());
    JsonObject call = McpHttpClient.request(77, "tools/call", new JsonObject().put("name", "test_ticker")
        .put("arguments", new JsonObject().put("steps", 3).put("intervalMs", 20))
        .put("_meta", new JsonObject().put("progressToken", "tok-1")));
    HttpResponse<InputStream> res = c.postStream(call, Map.of());
    assertEquals(200, res.statusCode());
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    List<SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    long progress = events.stream().filter(e -> "notifications/progress".equals(e.message().getString("method"))).count();
    long logs = events.stream().filter(e -> "notifications/message".equals(e.message().getString("method"))).count();
    assertEquals(3, progress);
    assertEquals(3, logs);
    SseEvent last = events.get(events.size() - 1);
    assertEquals(77, last.message().getInteger("id"));
    assertEquals("tok-1", events.get(0).message().getJsonObject("params").getString("progressToken"));
    events.forEach(e -> assertNotNull(e.id(), "every event carries an id"));
  }

  @Test
  void aCallAnsweredWithinTheStreamDelayIsOneJsonBodyWithoutItsProgress() throws Exception {
    HttpResponse<InputStream> res = progressCall(78, 0);
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
        "its progress could only have arrived with the answer: " + res.headers().map());
    JsonObject answer = new JsonObject(new String(res.body().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(78, answer.getInteger("id"));
    assertFalse(answer.getJsonObject("result").getBoolean("isError"));
  }

  @Test
  void aStreamOpenedLatePrimesThenSendsWhatTheCallSaidMeanwhileThenTheRest() throws Exception {
    HttpResponse<InputStream> res = progressCall(79, 400);
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    // raw events, the priming one (an id, a retry, no data) included, with when each was read
    java.io.BufferedReader r = new java.io.BufferedReader(
        new java.io.InputStreamReader(res.body(), java.nio.charset.StandardCharsets.UTF_8));
    List<String[]> events = new java.util.ArrayList<>();
    List<Long> readAt = new java.util.ArrayList<>();
    String id = null;
    String retry = null;
    StringBuilder data = new StringBuilder();
    for (String line; (line = r.readLine()) != null; ) {
      if (line.isEmpty()) {
        events.add(new String[] {id, retry, data.toString()});
        readAt.add(System.nanoTime());
        id = null;
        retry = null;
        data.setLength(0);
      } else if (line.startsWith("id: ")) {
        id = line.substring(4);
      } else if (line.startsWith("retry: ")) {
        retry = line.substring(7);
      } else if (line.startsWith("data: ")) {
        data.append(line.substring(6));
      }
    }
    assertEquals(4, events.size(), "priming, started, finishing, the answer");
    assertTrue(events.get(0)[0].endsWith("_0"), "the priming id precedes every event: " + events.get(0)[0]);
    assertNotNull(events.get(0)[1], "the priming event names the reconnect delay");
    assertTrue(events.get(0)[2].isEmpty());
    JsonObject started = new JsonObject(events.get(1)[2]);
    assertEquals("started", started.getJsonObject("params").getString("message"),
        "what the call said before its stream opened is sent first");
    assertEquals("finishing", new JsonObject(events.get(2)[2]).getJsonObject("params").getString("message"));
    assertEquals(79, new JsonObject(events.get(3)[2]).getInteger("id"));
    String prefix = events.get(0)[0].substring(0, events.get(0)[0].length() - 1);
    for (int i = 1; i < 4; i++) {
      assertEquals(prefix + i, events.get(i)[0], "ids follow the priming one in order");
    }
    assertTrue(readAt.get(3) - readAt.get(1) > 200_000_000L,
        "progress said early arrives while the call still runs, long before its answer");
  }

  /** test_progress answering after {@code ms}, with a progressToken, in a new session; checks the 200. */
  private static HttpResponse<InputStream> progressCall(int id, int ms) throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject call = McpHttpClient.request(id, "tools/call", new JsonObject().put("name", "test_progress")
        .put("arguments", new JsonObject().put("ms", ms))
        .put("_meta", new JsonObject().put("progressToken", "tok-" + id)));
    HttpResponse<InputStream> res = c.postStream(call, Map.of());
    assertEquals(200, res.statusCode());
    return res;
  }

  @Test
  void cancelledCallSendsNoResult() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    int before = CANCELLATIONS.get();
    // no progressToken: the answer would be one JSON body, so nothing is sent before the call ends
    var answer = c.postAsync(McpHttpClient.request(500, "tools/call",
        new JsonObject().put("name", "test_hang").put("arguments", new JsonObject())), Map.of());
    Thread.sleep(200);
    assertEquals(202, c.post(McpHttpClient.notification("notifications/cancelled",
        new JsonObject().put("requestId", 500).put("reason", "test")), Map.of()).status());
    HttpResponse<InputStream> res = answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(200, res.statusCode());
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"),
        "a cancelled call ends its POST as an empty event stream");
    List<SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    assertTrue(events.stream().noneMatch(e -> e.message().containsKey("result") || e.message().containsKey("error")),
        "no response after cancellation: " + events);
    assertEquals(before + 1, CANCELLATIONS.get());
  }

  @Test
  void lastEventIdReplaysWhatTheClientMissed() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject call = McpHttpClient.request(900, "tools/call", new JsonObject().put("name", "test_ticker")
        .put("arguments", new JsonObject().put("steps", 5).put("intervalMs", 150))
        .put("_meta", new JsonObject().put("progressToken", 9)));
    HttpResponse<InputStream> res = c.postStream(call, Map.of());
    List<SseEvent> first = McpHttpClient.readEvents(res.body(), 1);
    res.body().close();
    String lastId = first.get(0).id();
    Thread.sleep(1_200);
    HttpResponse<InputStream> resumed = c.getStream(Map.of("Last-Event-ID", lastId));
    assertEquals(200, resumed.statusCode());
    List<SseEvent> rest = McpHttpClient.readEvents(resumed.body(), Integer.MAX_VALUE);
    assertEquals(4, rest.stream().filter(e -> "notifications/progress".equals(e.message().getString("method"))).count(),
        "missed progress replayed: " + rest);
    assertEquals(900, rest.get(rest.size() - 1).message().getInteger("id"));
  }

  @Test
  void getStreamDeliversServerMessagesAndIsExclusive() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    HttpResponse<InputStream> stream = c.getStream(Map.of());
    assertEquals(200, stream.statusCode());
    assertEquals(409, c.getStream(Map.of()).statusCode());
    gw.gateway.tools().register(TestTools.echo("test_late_tool"));
    List<SseEvent> events = McpHttpClient.readEvents(stream.body(), 1);
    assertEquals("notifications/tools/list_changed", events.get(0).message().getString("method"));
    gw.gateway.tools().unregister("test_late_tool");
    stream.body().close();
  }
}
