package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.Tokens;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestTools;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Revision 2026-07-28 over real HTTP against a started gateway, request by request as the revision
 * words it: server/discover, the per-request {@code _meta}, the headers that mirror the body, the
 * errors (-32022, -32020, -32602, -32601 and 404, -32021), cacheable lists, progress and log
 * messages on the call's own stream (logs only when the request asks), cancellation by closing that
 * stream, input_required instead of a request to the client, tasks bound to their principal, and
 * subscriptions/listen announcing tool list changes. No session is ever made.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatelessHttpTest {

  private static final String V = "2026-07-28";
  private static final String ALICE = "alice-token-0123456789";
  private static final String BOB = "bob-token-0123456789";
  private static final String LONG_QUERY =
      "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 2000000000) SELECT count(*) FROM s";

  private final AtomicInteger hangCancellations = new AtomicInteger();
  private TestGateway gw;
  private Path state;

  @BeforeAll
  void start() throws Exception {
    state = Files.createTempDirectory("stateless");
    Path db = state.resolve("empty.sqlite");
    java.sql.DriverManager.getConnection("jdbc:sqlite:" + db).close();
    List<ConnectionConfig> connections = List.of(new ConnectionConfig("lite", Driver.SQLITE, null, db.toString(),
        null, null, null, 1, 8, 60_000, 10, 10));
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), connections, state).withPrincipals(List.of(
        new PrincipalConfig("alice", List.of(Tokens.sha256Hex(ALICE)), List.of()),
        new PrincipalConfig("bob", List.of(Tokens.sha256Hex(BOB)), List.of()))), f -> f.tools()
            .register(TestTools.ticker()).register(TestTools.hang(hangCancellations)).register(askName())
            .register(TestTools.progress()));
  }

  /**
   * The audit trail (flushed when the gateway stops) has the stateless calls: their principal from
   * the token, the client named in their {@code _meta}, and no session.
   */
  @AfterAll
  void stopAndReadTheAudit() throws Exception {
    gw.close();
    List<JsonObject> calls = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(state.resolve("audit"))) {
      for (Path f : files.toList()) {
        for (String line : Files.readAllLines(f)) {
          JsonObject r = new JsonObject(line);
          if ("tools/call".equals(r.getString("type")) && "test_ticker".equals(r.getString("tool"))) {
            calls.add(r);
          }
        }
      }
    }
    assertFalse(calls.isEmpty(), "the stateless calls are audited");
    for (JsonObject r : calls) {
      assertEquals("alice", r.getString("principal"), r.encode());
      assertEquals("stateless-test", r.getJsonObject("client").getString("name"), r.encode());
      assertNull(r.getString("sessionId"), r.encode());
    }
  }

  // ---- discovery, lists, result shape --------------------------------------------------------

  @Test
  void discoverOffersTheRevisionTheTasksExtensionAndNoSession() throws Exception {
    McpHttpClient.Reply r = post(ALICE, request(1, "server/discover", new JsonObject(), caps()), headers("server/discover", null));
    assertEquals(200, r.status(), r.body());
    assertNull(r.header("Mcp-Session-Id"), "no session in this revision");
    JsonObject result = r.json().getJsonObject("result");
    assertEquals(new JsonArray().add(V), result.getJsonArray("supportedVersions"));
    assertEquals("complete", result.getString("resultType"));
    assertTrue(result.getJsonObject("capabilities").getJsonObject("extensions").containsKey("io.modelcontextprotocol/tasks"));
    assertTrue(result.getLong("ttlMs") > 0);
    assertEquals("sluice", result.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo")
        .getString("name"));
  }

  @Test
  void toolsListIsCacheableAndTheSameAsASessionSees() throws Exception {
    JsonObject result = post(ALICE, request(2, "tools/list", new JsonObject(), caps()), headers("tools/list", null))
        .json().getJsonObject("result");
    assertEquals("complete", result.getString("resultType"));
    assertEquals(60_000L, result.getLong("ttlMs"));
    assertEquals("public", result.getString("cacheScope"));
    McpHttpClient session = gw.session(ALICE);
    assertEquals(session.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools"),
        result.getJsonArray("tools"));
  }

  // ---- errors ------------------------------------------------------------------------------------

  @Test
  void aRevisionWeDoNotServeIsMinus32022WithTheOnesWeDo() throws Exception {
    JsonObject msg = request(3, "tools/list", new JsonObject(), caps());
    msg.getJsonObject("params").getJsonObject("_meta").put("io.modelcontextprotocol/protocolVersion", "2099-01-01");
    Map<String, String> h = headers("tools/list", null);
    h.put("MCP-Protocol-Version", "2099-01-01");
    McpHttpClient.Reply r = post(ALICE, msg, h);
    assertEquals(400, r.status());
    JsonObject error = r.json().getJsonObject("error");
    assertEquals(-32022, error.getInteger("code"));
    assertEquals(new JsonArray().add(V), error.getJsonObject("data").getJsonArray("supported"));
    assertEquals("2099-01-01", error.getJsonObject("data").getString("requested"));
  }

  @Test
  void aMissingRequiredMetaFieldIsMinus32602With400() throws Exception {
    JsonObject msg = request(4, "tools/list", new JsonObject(), caps());
    msg.getJsonObject("params").getJsonObject("_meta").remove("io.modelcontextprotocol/clientCapabilities");
    McpHttpClient.Reply r = post(ALICE, msg, headers("tools/list", null));
    assertEquals(400, r.status());
    assertEquals(-32602, r.json().getJsonObject("error").getInteger("code"));
    // the header names the revision, the body has no envelope at all
    McpHttpClient.Reply bare = post(ALICE, new JsonObject().put("jsonrpc", "2.0").put("id", 5).put("method", "tools/list"),
        headers("tools/list", null));
    assertEquals(400, bare.status());
    assertEquals(-32602, bare.json().getJsonObject("error").getInteger("code"));
  }

  @Test
  void headersMustMirrorTheBody() throws Exception {
    JsonObject call = request(6, "tools/call", new JsonObject().put("name", "test_ticker")
        .put("arguments", new JsonObject().put("steps", 1)), caps());
    Map<String, String> noVersion = headers("tools/call", "test_ticker");
    noVersion.remove("MCP-Protocol-Version");
    Map<String, String> wrongMethod = headers("tools/list", "test_ticker");
    Map<String, String> wrongName = headers("tools/call", "test_hang");
    Map<String, String> noName = headers("tools/call", null);
    for (Map<String, String> h : List.of(noVersion, wrongMethod, wrongName, noName)) {
      McpHttpClient.Reply r = post(ALICE, call, h);
      assertEquals(400, r.status(), h + ": " + r.body());
      assertEquals(-32020, r.json().getJsonObject("error").getInteger("code"), r.body());
    }
    // a name sent Base64-encoded is decoded before it is compared
    Map<String, String> encoded = headers("tools/call", "=?base64?"
        + Base64.getEncoder().encodeToString("test_ticker".getBytes(StandardCharsets.UTF_8)) + "?=");
    List<McpHttpClient.SseEvent> ok = stream(ALICE, call, encoded);
    assertEquals("complete", ok.get(ok.size() - 1).message().getJsonObject("result").getString("resultType"));
  }

  @Test
  void removedAndUnknownMethodsAre404WithMinus32601() throws Exception {
    for (String method : List.of("ping", "initialize", "logging/setLevel", "no/such")) {
      McpHttpClient.Reply r = post(ALICE, request(7, method, new JsonObject(), caps()), headers(method, null));
      assertEquals(404, r.status(), method + ": " + r.body());
      assertEquals(-32601, r.json().getJsonObject("error").getInteger("code"));
    }
  }

  @Test
  void aNotificationIsAcceptedWith202() throws Exception {
    JsonObject n = new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
        .put("params", new JsonObject().put("requestId", 99).put("_meta", caps()));
    assertEquals(202, post(ALICE, n, headers("notifications/cancelled", null)).status());
  }

  // ---- a call's own stream: progress, logs, cancellation -----------------------------------------

  @Test
  void progressAndLogMessagesTravelOnTheCallsStreamLogsOnlyWhenAsked() throws Exception {
    JsonObject withLogs = caps().put("progressToken", "p-1").put("io.modelcontextprotocol/logLevel", "info");
    List<McpHttpClient.SseEvent> events = stream(ALICE, request(8, "tools/call", new JsonObject()
        .put("name", "test_ticker").put("arguments", new JsonObject().put("steps", 3).put("intervalMs", 20)), withLogs));
    assertEquals(3, count(events, "notifications/progress"));
    assertEquals(3, count(events, "notifications/message"));
    JsonObject last = events.get(events.size() - 1).message();
    assertEquals(8, last.getInteger("id"));
    assertEquals("complete", last.getJsonObject("result").getString("resultType"));
    assertTrue(events.stream().allMatch(e -> e.id() == null), "2026-07-28 streams are not resumable: no event ids");

    List<McpHttpClient.SseEvent> quiet = stream(ALICE, request(9, "tools/call", new JsonObject()
        .put("name", "test_ticker").put("arguments", new JsonObject().put("steps", 2).put("intervalMs", 20)),
        caps().put("progressToken", "p-2")));
    assertEquals(0, count(quiet, "notifications/message"), "no logLevel in _meta: no notifications/message");
    assertEquals(2, count(quiet, "notifications/progress"));
  }

  @Test
  void aCallAnsweredWithinTheStreamDelayIsJsonAndALongerOneStreamsWhatItSaidMeanwhile() throws Exception {
    JsonObject quick = new JsonObject().put("name", "test_progress").put("arguments", new JsonObject().put("ms", 0));
    HttpResponse<InputStream> res = client(ALICE).postStream(request(14, "tools/call", quick,
        caps().put("progressToken", "p-q")), headers("tools/call", "test_progress"));
    assertEquals(200, res.statusCode());
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
        "its progress could only have arrived with the answer");
    assertEquals(14, new JsonObject(new String(res.body().readAllBytes(), StandardCharsets.UTF_8)).getInteger("id"));

    JsonObject slow = new JsonObject().put("name", "test_progress").put("arguments", new JsonObject().put("ms", 300));
    List<McpHttpClient.SseEvent> events = stream(ALICE, request(15, "tools/call", slow,
        caps().put("progressToken", "p-l")));
    assertEquals(3, events.size(), "started (said before the stream opened), finishing, the answer: " + events);
    assertEquals("started", events.get(0).message().getJsonObject("params").getString("message"));
    assertEquals("finishing", events.get(1).message().getJsonObject("params").getString("message"));
    assertEquals(15, last(events).getInteger("id"));
  }

  @Test
  void closingTheCallsStreamCancelsIt() throws Exception {
    int before = hangCancellations.get();
    McpHttpClient c = client(ALICE);
    HttpResponse<InputStream> res = c.postStream(request(10, "tools/call", new JsonObject().put("name", "test_hang"),
        caps()), headers("tools/call", "test_hang"));
    assertEquals(200, res.statusCode());
    assertTrue(res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    res.body().close();
    for (int i = 0; i < 100 && hangCancellations.get() == before; i++) {
      Thread.sleep(50);
    }
    assertEquals(before + 1, hangCancellations.get(), "the tool saw its cancellation");
  }

  // ---- multi round-trip requests ----------------------------------------------------------------

  @Test
  void aRequestToTheClientBecomesInputRequiredAndTheRetryCompletes() throws Exception {
    JsonObject params = new JsonObject().put("name", "test_ask_name").put("arguments", new JsonObject());
    // the answer is known at once, so it comes as JSON, with the status the revision asks for
    McpHttpClient.Reply undeclared = post(ALICE, request(11, "tools/call", params.copy(), caps()),
        headers("tools/call", "test_ask_name"));
    assertEquals(400, undeclared.status(), undeclared.body());
    assertEquals(-32021, undeclared.json().getJsonObject("error").getInteger("code"));
    assertTrue(undeclared.json().getJsonObject("error").getJsonObject("data").getJsonObject("requiredCapabilities")
        .containsKey("elicitation"));

    JsonObject elicit = new JsonObject().put("io.modelcontextprotocol/protocolVersion", V)
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject().put("elicitation", new JsonObject()));
    JsonObject first = last(stream(ALICE, request(12, "tools/call", params.copy(), elicit.copy())))
        .getJsonObject("result");
    assertEquals("input_required", first.getString("resultType"), first.encode());
    String key = first.getJsonObject("inputRequests").fieldNames().iterator().next();
    assertEquals("elicitation/create", first.getJsonObject("inputRequests").getJsonObject(key).getString("method"));

    JsonObject retry = params.copy().put("inputResponses", new JsonObject().put(key, new JsonObject()
        .put("action", "accept").put("content", new JsonObject().put("name", "Ada"))));
    JsonObject done = last(stream(ALICE, request(13, "tools/call", retry, elicit.copy()))).getJsonObject("result");
    assertEquals("complete", done.getString("resultType"), done.encode());
    assertEquals("hello Ada", done.getJsonArray("content").getJsonObject(0).getString("text"));
  }

  // ---- tasks -----------------------------------------------------------------------------------

  @Test
  void aLongCallBecomesATaskOnlyItsPrincipalSeesAndCancels() throws Exception {
    JsonObject tasks = new JsonObject().put("io.modelcontextprotocol/protocolVersion", V)
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject().put("extensions",
            new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject())));
    List<McpHttpClient.SseEvent> events = stream(ALICE, request(14, "tools/call", new JsonObject()
        .put("name", "sql_execution").put("arguments", new JsonObject().put("connectionId", "lite").put("sql", LONG_QUERY)),
        tasks.copy()));
    JsonObject created = events.get(events.size() - 1).message().getJsonObject("result");
    assertEquals("task", created.getString("resultType"), created.encode());
    assertEquals("working", created.getString("status"));
    String taskId = created.getString("taskId");

    JsonObject get = request(15, "tasks/get", new JsonObject().put("taskId", taskId), tasks.copy());
    McpHttpClient.Reply asBob = post(BOB, get, headers("tasks/get", taskId));
    assertEquals(-32602, asBob.json().getJsonObject("error").getInteger("code"), "another principal's task is unknown");
    McpHttpClient.Reply undeclared = post(ALICE, request(16, "tasks/get", new JsonObject().put("taskId", taskId), caps()),
        headers("tasks/get", taskId));
    assertEquals(400, undeclared.status());
    assertEquals(-32021, undeclared.json().getJsonObject("error").getInteger("code"));
    JsonObject working = post(ALICE, get, headers("tasks/get", taskId)).json().getJsonObject("result");
    assertEquals("working", working.getString("status"), working.encode());
    assertEquals("complete", working.getString("resultType"));

    McpHttpClient.Reply cancel = post(ALICE, request(17, "tasks/cancel", new JsonObject().put("taskId", taskId),
        tasks.copy()), headers("tasks/cancel", taskId));
    assertEquals(200, cancel.status(), cancel.body());
    String status = null;
    for (int i = 0; i < 100 && !"cancelled".equals(status); i++) {
      Thread.sleep(100);
      status = post(ALICE, get, headers("tasks/get", taskId)).json().getJsonObject("result").getString("status");
    }
    assertEquals("cancelled", status);
  }

  // ---- subscriptions/listen --------------------------------------------------------------------

  @Test
  void aListenStreamAnnouncesToolListChanges() throws Exception {
    McpHttpClient c = client(ALICE);
    JsonObject listen = request(18, "subscriptions/listen", new JsonObject().put("notifications", new JsonObject()
        .put("toolsListChanged", true).put("promptsListChanged", true)), caps());
    HttpResponse<InputStream> res = c.postStream(listen, headers("subscriptions/listen", null));
    assertEquals(200, res.statusCode());
    Thread changer = new Thread(() -> {
      try {
        Thread.sleep(300);
        gw.gateway.tools().register(TestTools.echo("test_appears"));
        gw.gateway.tools().unregister("test_appears");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    changer.start();
    List<McpHttpClient.SseEvent> events = McpHttpClient.readEvents(res.body(), 3);
    res.body().close();
    changer.join();
    JsonObject ack = events.get(0).message();
    assertEquals("notifications/subscriptions/acknowledged", ack.getString("method"));
    assertEquals(new JsonObject().put("toolsListChanged", true), ack.getJsonObject("params").getJsonObject("notifications"),
        "only what the server has is acknowledged");
    for (McpHttpClient.SseEvent e : events.subList(1, 3)) {
      assertEquals("notifications/tools/list_changed", e.message().getString("method"));
      assertEquals(18, e.message().getJsonObject("params").getJsonObject("_meta")
          .getInteger("io.modelcontextprotocol/subscriptionId"));
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** A tool that asks the client for a name (elicitation) and greets it. */
  private static Tool askName() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return new ToolSpec("test_ask_name", null, "asks the user's name", new JsonObject().put("type", "object")
            .put("properties", new JsonObject()), null, null);
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        return ctx.requestClient("elicitation/create", new JsonObject().put("mode", "form")
                .put("message", "Your name?").put("requestedSchema", new JsonObject().put("type", "object")
                    .put("properties", new JsonObject().put("name", new JsonObject().put("type", "string")))), 30_000)
            .map(r -> ToolResult.of(null, "hello " + r.getJsonObject("content").getString("name")));
      }
    };
  }

  private static JsonObject caps() {
    return new JsonObject().put("io.modelcontextprotocol/protocolVersion", V)
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "stateless-test").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
  }

  private static JsonObject request(int id, String method, JsonObject params, JsonObject meta) {
    return McpHttpClient.request(id, method, params.put("_meta", meta));
  }

  private static Map<String, String> headers(String method, String name) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("MCP-Protocol-Version", V);
    h.put("Mcp-Method", method);
    if (name != null) {
      h.put("Mcp-Name", name);
    }
    return h;
  }

  private static JsonObject last(List<McpHttpClient.SseEvent> events) {
    return events.get(events.size() - 1).message();
  }

  private McpHttpClient client(String token) {
    McpHttpClient c = gw.client();
    c.token = token;
    return c;
  }

  private McpHttpClient.Reply post(String token, JsonObject msg, Map<String, String> headers) throws Exception {
    return client(token).post(msg, headers);
  }

  /** POSTs a request accepting SSE and reads the stream to its end (a JSON answer counts as one event). */
  private List<McpHttpClient.SseEvent> stream(String token, JsonObject msg) throws Exception {
    return stream(token, msg, headers(msg.getString("method"), msg.getJsonObject("params").getString("name")));
  }

  private List<McpHttpClient.SseEvent> stream(String token, JsonObject msg, Map<String, String> headers)
      throws Exception {
    HttpResponse<InputStream> res = client(token).postStream(msg, headers);
    assertEquals(200, res.statusCode());
    if (res.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
      return List.of(new McpHttpClient.SseEvent(null, new JsonObject(new String(res.body().readAllBytes(),
          StandardCharsets.UTF_8))));
    }
    List<McpHttpClient.SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    assertFalse(events.isEmpty());
    return events;
  }

  private static long count(List<McpHttpClient.SseEvent> events, String method) {
    return events.stream().filter(e -> method.equals(e.message().getString("method"))).count();
  }
}
