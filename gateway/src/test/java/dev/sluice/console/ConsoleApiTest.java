package dev.sluice.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.Tokens;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The console's admin API over real HTTP: every console route refuses a foreign Host (421), a
 * foreign Origin (403) and a non-operator token (403); the live view shows a session and its
 * running PostgreSQL query, and the API's cancel stops it at the engine (pg_stat_activity); so do
 * a stateless (2026-07-28) call's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleApiTest {

  private static final String OPS = Tokens.newToken();
  private static final String AGENT = Tokens.newToken();
  /** Every console request the page or a script makes, with the method and body it takes. */
  private static final List<String[]> ROUTES = List.of(
      new String[] {"GET", "/console", null},
      new String[] {"GET", "/console/assets/console.js", null},
      new String[] {"GET", "/console/assets/console.css", null},
      new String[] {"GET", "/console/api/overview", null},
      new String[] {"GET", "/console/api/live", null},
      new String[] {"GET", "/console/api/stream", null},
      new String[] {"GET", "/console/api/history?kind=refusals", null},
      new String[] {"GET", "/console/api/connections", null},
      new String[] {"GET", "/console/api/limits", null},
      new String[] {"GET", "/console/api/charts", null},
      new String[] {"POST", "/console/api/rescan", "{\"connectionId\":\"pg\"}"},
      new String[] {"POST", "/console/api/cancel", "{\"sessionId\":\"n.0.x\",\"callId\":\"1\"}"});

  private TestGateway gw;
  private URI base;
  private Vertx vertx;
  private Pool admin;

  @BeforeAll
  void start() throws Exception {
    TestDatabases.requirePostgres();
    Path dir = Files.createTempDirectory("sluice-console");
    ConnectionConfig pg = new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
        null, null, null, "scratch", 2, 16, 60_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(pg), dir).withPrincipals(List.of(
        new PrincipalConfig("ops", List.of(Tokens.sha256Hex(OPS)), List.of(), null, null, List.of(), true),
        new PrincipalConfig("agent", List.of(Tokens.sha256Hex(AGENT)), List.of(),
            new dev.sluice.config.LimitsConfig(1_000, 0, 4))));
    gw = TestGateway.start(config, null);
    base = URI.create(gw.url());
    vertx = Vertx.vertx();
    admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
    if (admin != null) {
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aForeignHostIsMisdirectedOnEveryConsoleRequest() throws Exception {
    for (String[] r : ROUTES) {
      Answer a = send(r, "Host: evil.example:" + base.getPort(), "Authorization: Bearer " + OPS);
      assertEquals(421, a.status, r[0] + " " + r[1] + ": " + a.text);
    }
  }

  @Test
  void aForeignOriginIsForbiddenOnEveryConsoleRequest() throws Exception {
    for (String[] r : ROUTES) {
      Answer a = send(r, host(), "Origin: http://evil.example", "Authorization: Bearer " + OPS);
      assertEquals(403, a.status, r[0] + " " + r[1] + ": " + a.text);
      assertTrue(a.text.contains("Origin 'http://evil.example' is not allowed"), a.text);
    }
  }

  @Test
  void aNonOperatorTokenIsForbiddenOnEveryConsoleRequest() throws Exception {
    for (String[] r : ROUTES) {
      Answer a = send(r, host(), "Authorization: Bearer " + AGENT);
      assertEquals(403, a.status, r[0] + " " + r[1] + ": " + a.text);
      assertTrue(a.text.contains("principal 'agent' is not an operator"), a.text);
    }
  }

  @Test
  void theApiWantsAToken() throws Exception {
    for (String[] r : ROUTES) {
      if (r[1].startsWith("/console/api/")) {
        assertEquals(401, send(r, host()).status, r[1]);
      }
    }
    // the page and its assets hold no data: a browser loads them before the operator types a token
    assertEquals(200, send(ROUTES.get(0), host()).status);
    Answer sameOrigin = send(ROUTES.get(4), host(), "Origin: http://127.0.0.1:" + base.getPort(),
        "Authorization: Bearer " + OPS);
    assertEquals(200, sameOrigin.status, sameOrigin.text);
  }

  @Test
  void theLiveViewShowsARunningQueryAndCancelStopsItAtTheEngine() throws Exception {
    McpHttpClient agent = gw.session(AGENT);
    agent.post(McpHttpClient.notification("notifications/initialized", null), Map.of());
    String marker = "console_api_" + Long.toHexString(System.nanoTime());
    CompletableFuture<JsonObject> call = CompletableFuture.supplyAsync(() -> {
      try {
        return agent.callTool("sql_execution", new JsonObject().put("connectionId", "pg")
            .put("sql", "SELECT pg_sleep(30) AS " + marker));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    JsonObject running = awaitCall(marker);
    assertEquals("agent", running.getString("principal"));
    assertEquals("pg", running.getString("connectionId"));
    assertEquals(agent.sessionId, running.getString("sessionId"));
    JsonObject live = api("GET", "/console/api/live", null);
    assertTrue(live.getJsonArray("sessions").stream().map(JsonObject.class::cast)
        .anyMatch(s -> agent.sessionId.equals(s.getString("sessionId")) && "agent".equals(s.getString("principal"))),
        live.encode());
    // the call is listed from its start; cancel once the statement has reached the engine
    long reached = System.currentTimeMillis() + 10_000;
    while (engineRunning(marker) == 0 && System.currentTimeMillis() < reached) {
      Thread.sleep(50);
    }
    assertEquals(1, engineRunning(marker), "pg_stat_activity shows the query before the cancel");
    assertEquals(1, limitsOf("agent").getInteger("inFlight"), "the running statement holds one of its slots");

    JsonObject cancelled = api("POST", "/console/api/cancel", new JsonObject()
        .put("sessionId", running.getString("sessionId")).put("callId", running.getString("callId")).encode());
    assertEquals(true, cancelled.getBoolean("cancelled"), cancelled.encode());

    // the agent is told in band, long before pg_sleep(30) would have returned
    JsonObject result = call.get(10, TimeUnit.SECONDS);
    assertEquals(true, result.getJsonObject("result").getBoolean("isError"), result.encode());
    assertTrue(result.encode().contains("cancelled"), result.encode());
    long deadline = System.currentTimeMillis() + 5_000;
    while (engineRunning(marker) > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(0, engineRunning(marker), "the query ended at the engine");
    assertEquals(0, limitsOf("agent").getInteger("inFlight"), "the cancelled statement gave its slot back");
    awaitHistory("text=" + marker, r -> "cancelled".equals(r.getString("outcome"))
        && "cancelled from the operator's console by ops".equals(r.getString("errorMessage")));
    JsonObject charts = api("GET", "/console/api/charts", null);
    assertEquals(900, charts.getJsonArray("calls").size());
    assertTrue(charts.getJsonArray("calls").stream().mapToLong(o -> ((Number) o).longValue()).sum() >= 1,
        "the cancelled call is counted: " + charts.getJsonArray("calls").stream().filter(o -> ((Number) o).longValue() > 0).toList());
    JsonObject after = api("GET", "/console/api/live", null);
    assertTrue(after.getJsonArray("calls").stream().map(JsonObject.class::cast)
        .noneMatch(c -> String.valueOf(c.getString("sql")).contains(marker)), after.encode());

    Answer again = send(new String[] {"POST", "/console/api/cancel", new JsonObject()
        .put("sessionId", running.getString("sessionId")).put("callId", running.getString("callId")).encode()},
        host(), "Authorization: Bearer " + OPS);
    assertEquals(404, again.status, again.text);
  }

  /**
   * A 2026-07-28 call has no session: it is listed as stateless, pushed over the console's SSE
   * stream like the others, and the console's cancel stops its query at the engine; the client,
   * still waiting on its request's stream, is told in band who cancelled it.
   */
  @Test
  void aStatelessCallIsListedPushedAndCancelledAtTheEngine() throws Exception {
    String marker = "console_stateless_" + Long.toHexString(System.nanoTime());
    McpHttpClient agent = gw.client();
    agent.token = AGENT;
    JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "console-stateless").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    JsonObject request = McpHttpClient.request(7, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "pg").put("sql", "SELECT pg_sleep(30) AS " + marker))
        .put("_meta", meta));
    CompletableFuture<JsonObject> call = CompletableFuture.supplyAsync(() -> {
      try {
        HttpResponse<InputStream> res = agent.postStream(request, Map.of("MCP-Protocol-Version", "2026-07-28",
            "Mcp-Method", "tools/call", "Mcp-Name", "sql_execution"));
        if (res.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
          return new JsonObject(new String(res.body().readAllBytes(), StandardCharsets.UTF_8));
        }
        List<McpHttpClient.SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
        return events.get(events.size() - 1).message();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    // the console's own stream pushes it, as it does session calls
    HttpResponse<InputStream> stream = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
        .newBuilder(base.resolve("/console/api/stream")).header("Authorization", "Bearer " + OPS)
        .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    JsonObject pushed;
    try (InputStream in = stream.body()) {
      pushed = CompletableFuture.supplyAsync(() -> {
        try {
          java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
          String event = null;
          for (String line; (line = r.readLine()) != null; ) {
            if (line.startsWith("event:")) {
              event = line.substring(6).trim();
            } else if (line.startsWith("data:") && "live".equals(event)) {
              for (Object o : new JsonObject(line.substring(5).trim()).getJsonArray("calls")) {
                if (String.valueOf(((JsonObject) o).getString("sql")).contains(marker)) {
                  return (JsonObject) o;
                }
              }
            }
          }
          throw new AssertionError("the console's stream ended before it showed the stateless call");
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
      }).get(15, TimeUnit.SECONDS);
    }
    assertEquals(true, pushed.getBoolean("stateless"), pushed.encode());

    JsonObject running = awaitCall(marker);
    JsonObject live = api("GET", "/console/api/live", null);
    assertEquals(true, running.getBoolean("stateless"), running.encode());
    assertTrue(running.containsKey("sessionId") && running.getValue("sessionId") == null, running.encode());
    assertEquals("sql_execution", running.getString("tool"));
    assertEquals("pg", running.getString("connectionId"));
    assertEquals("agent", running.getString("principal"));
    assertEquals(live.getString("node"), running.getString("node"), running.encode());
    assertEquals("7", running.getString("callId"), "the client's own request id: " + running.encode());
    assertTrue(running.getLong("elapsedMs") >= 0, running.encode());
    assertTrue(running.getString("statelessId").endsWith("@" + live.getString("node")), running.encode());
    assertTrue(live.getJsonArray("sessions").stream().map(JsonObject.class::cast)
        .noneMatch(s -> "console-stateless".equals(s.getJsonObject("client").getString("name"))),
        "a stateless call opens no session: " + live.encode());
    long reached = System.currentTimeMillis() + 10_000;
    while (engineRunning(marker) == 0 && System.currentTimeMillis() < reached) {
      Thread.sleep(50);
    }
    assertEquals(1, engineRunning(marker), "pg_stat_activity shows the query before the cancel");

    JsonObject cancelled = api("POST", "/console/api/cancel",
        new JsonObject().put("statelessId", running.getString("statelessId")).encode());
    assertEquals(true, cancelled.getBoolean("cancelled"), cancelled.encode());
    JsonObject result = call.get(10, TimeUnit.SECONDS);
    assertEquals(7, result.getInteger("id"), result.encode());
    assertEquals("complete", result.getJsonObject("result").getString("resultType"), result.encode());
    assertEquals(true, result.getJsonObject("result").getBoolean("isError"), result.encode());
    assertTrue(result.encode().contains("the gateway's operator (ops) cancelled this call"), result.encode());
    long deadline = System.currentTimeMillis() + 5_000;
    while (engineRunning(marker) > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(0, engineRunning(marker), "the query ended at the engine");
    awaitHistory("text=" + marker, r -> "cancelled".equals(r.getString("outcome"))
        && "cancelled from the operator's console by ops".equals(r.getString("errorMessage")));
    JsonObject after = api("GET", "/console/api/live", null);
    assertTrue(after.getJsonArray("calls").stream().map(JsonObject.class::cast)
        .noneMatch(c -> String.valueOf(c.getString("sql")).contains(marker)), after.encode());

    String again = new JsonObject().put("statelessId", running.getString("statelessId")).encode();
    assertEquals(404, send(new String[] {"POST", "/console/api/cancel", again}, host(),
        "Authorization: Bearer " + OPS).status);
    assertEquals(400, send(new String[] {"POST", "/console/api/cancel", "{\"statelessId\":\"no-node\"}"}, host(),
        "Authorization: Bearer " + OPS).status);
    Answer gone = send(new String[] {"POST", "/console/api/cancel", "{\"statelessId\":\"1@nowhere\"}"}, host(),
        "Authorization: Bearer " + OPS);
    assertEquals(404, gone.status, gone.text);
    assertTrue(gone.text.contains("node nowhere that runs this call is not in the cluster"), gone.text);
  }

  /** A stateless call that became a task is still listed; the console's cancel ends the task as cancelled. */
  @Test
  void aStatelessCallThatBecameATaskIsCancelledFromTheConsole() throws Exception {
    String marker = "console_task_" + Long.toHexString(System.nanoTime());
    McpHttpClient agent = gw.client();
    agent.token = AGENT;
    JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject().put("extensions",
            new JsonObject().put("io.modelcontextprotocol/tasks", new JsonObject())));
    Map<String, String> headers = Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
        "Mcp-Name", "sql_execution");
    // answered once the call outlives the inline window: a task, the call running on
    McpHttpClient.Reply created = agent.post(McpHttpClient.request(8, "tools/call", new JsonObject()
        .put("name", "sql_execution").put("arguments", new JsonObject().put("connectionId", "pg")
            .put("sql", "SELECT pg_sleep(30) AS " + marker)).put("_meta", meta.copy())), headers);
    String body = created.body();
    JsonObject task = new JsonObject(body.contains("data:") ? body.substring(body.lastIndexOf("data:") + 5).trim() : body)
        .getJsonObject("result");
    assertEquals("task", task.getString("resultType"), task.encode());
    JsonObject running = awaitCall(marker);
    assertEquals(true, running.getBoolean("stateless"), running.encode());
    assertEquals(1, engineRunning(marker), "pg_stat_activity shows the task's query before the cancel");

    api("POST", "/console/api/cancel", new JsonObject().put("statelessId", running.getString("statelessId")).encode());
    JsonObject get = McpHttpClient.request(9, "tasks/get", new JsonObject().put("taskId", task.getString("taskId"))
        .put("_meta", meta.copy()));
    JsonObject state = null;
    for (long until = System.currentTimeMillis() + 5_000; System.currentTimeMillis() < until; Thread.sleep(100)) {
      state = agent.post(get, Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tasks/get",
          "Mcp-Name", task.getString("taskId"))).json().getJsonObject("result");
      if ("cancelled".equals(state.getString("status"))) {
        break;
      }
    }
    assertEquals("cancelled", state.getString("status"), state.encode());
    assertEquals("cancelled from the operator's console by ops", state.getString("statusMessage"), state.encode());
    for (long until = System.currentTimeMillis() + 5_000; engineRunning(marker) > 0 && System.currentTimeMillis() < until; ) {
      Thread.sleep(50);
    }
    assertEquals(0, engineRunning(marker), "the task's query ended at the engine");
  }

  @Test
  void historyShowsCallsAndRefusalsFromTheAuditTrail() throws Exception {
    send(ROUTES.get(4), host(), "Authorization: Bearer " + AGENT);
    McpHttpClient agent = gw.session(AGENT);
    agent.callTool("sql_execution", new JsonObject().put("connectionId", "pg").put("sql", "SELECT 41 + 1 AS answer"));
    agent.callTool("sql_execution", new JsonObject().put("connectionId", "pg").put("sql", "DELETE FROM nowhere"));
    // the trail is written in batches: wait until both refusals are on file
    JsonArray refusals = awaitHistory("kind=refusals", r -> "http_refused".equals(r.getString("type"))
        && "/console/api/live".equals(r.getString("path")) && r.getString("reason").contains("not an operator"),
        r -> "validation_failed".equals(r.getString("errorType")) && "agent".equals(r.getString("principal"))
            && r.getString("errorMessage", "").length() > 10);
    assertTrue(refusals.stream().map(JsonObject.class::cast).noneMatch(r -> "ok".equals(r.getString("outcome"))),
        refusals.encode());
    JsonArray calls = awaitHistory("principal=agent&text=41%20%2B%201", r -> "ok".equals(r.getString("outcome")));
    assertEquals(1, calls.size(), calls.encode());
    assertEquals(400, send(new String[] {"GET", "/console/api/history?kind=everything", null}, host(),
        "Authorization: Bearer " + OPS).status);
  }

  @Test
  void connectionsShowTheirPoolAndCatalogAndARescanRuns() throws Exception {
    JsonObject pg = api("GET", "/console/api/connections", null).getJsonArray("connections").getJsonObject(0);
    assertEquals("pg", pg.getString("id"));
    assertEquals("up", pg.getString("status"), pg.encode());
    assertEquals(2, pg.getJsonObject("pool").getInteger("size"), pg.encode());
    assertTrue(pg.getJsonObject("pool").containsKey("waiting"), pg.encode());
    JsonObject started = api("POST", "/console/api/rescan", "{\"connectionId\":\"pg\"}");
    assertEquals(true, started.getBoolean("scanning"), started.encode());
    long deadline = System.currentTimeMillis() + 60_000;
    JsonObject catalog = null;
    while (System.currentTimeMillis() < deadline) {
      catalog = api("GET", "/console/api/connections", null).getJsonArray("connections").getJsonObject(0)
          .getJsonObject("catalog");
      if (catalog.getValue("snapshotAgeMs") != null && !catalog.getBoolean("scanning", false)) {
        break;
      }
      Thread.sleep(200);
    }
    assertTrue(catalog.getLong("snapshotAgeMs") >= 0 && catalog.getString("lastSyncId") != null, catalog.encode());
    assertEquals(400, send(new String[] {"POST", "/console/api/rescan", "{\"connectionId\":\"nope\"}"}, host(),
        "Authorization: Bearer " + OPS).status);
  }

  @Test
  void limitsShowEachPrincipalsBudgetAsItStands() throws Exception {
    JsonObject a = limitsOf("agent");
    assertEquals(1_000, a.getJsonObject("limits").getInteger("queriesPerMinute"));
    assertEquals(4, a.getJsonObject("limits").getInteger("concurrentQueries"));
    assertEquals("node", a.getString("scope"));
    // the bucket refills continuously, so only its bounds are certain here; rows are not limited
    long left = a.getJsonObject("remaining").getLong("queries");
    assertTrue(left >= 0 && left <= 1_000, a.encode());
    assertEquals(null, a.getJsonObject("remaining").getValue("rows"), a.encode());
    JsonObject ops = limitsOf("ops");
    assertEquals(null, ops.getJsonObject("remaining").getValue("queries"), "no limits configured: " + ops.encode());
  }

  private JsonObject limitsOf(String principal) throws Exception {
    return api("GET", "/console/api/limits", null).getJsonArray("limits").stream().map(JsonObject.class::cast)
        .filter(l -> principal.equals(l.getString("principal"))).findFirst().orElseThrow();
  }

  @Test
  void onALoopbackGatewayWithoutTokensTheLocalUserIsTheOperator() throws Exception {
    Path dir = Files.createTempDirectory("sluice-console-open");
    try (TestGateway open = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(), dir), null)) {
      URI u = URI.create(open.url());
      Answer a = raw(u, "GET", "/console/api/overview", null, "Host: 127.0.0.1:" + u.getPort());
      assertEquals(200, a.status, a.text);
      assertTrue(a.text.contains("\"operator\":\"default\""), a.text);
    }
  }

  // ---- helpers --------------------------------------------------------------------------------

  private JsonObject awaitCall(String marker) throws Exception {
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      for (Object o : api("GET", "/console/api/live", null).getJsonArray("calls")) {
        JsonObject c = (JsonObject) o;
        if (String.valueOf(c.getString("sql")).contains(marker)) {
          return c;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the running call never appeared in /console/api/live");
  }

  @SafeVarargs
  private JsonArray awaitHistory(String query, java.util.function.Predicate<JsonObject>... wanted) throws Exception {
    long deadline = System.currentTimeMillis() + 10_000;
    JsonArray last = null;
    while (System.currentTimeMillis() < deadline) {
      JsonArray records = api("GET", "/console/api/history?" + query, null).getJsonArray("records");
      last = records;
      if (java.util.Arrays.stream(wanted).allMatch(w -> records.stream().map(JsonObject.class::cast).anyMatch(w))) {
        return last;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("history?" + query + " never showed the record: " + last);
  }

  private int engineRunning(String marker) throws Exception {
    return admin.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()").execute().await(5, TimeUnit.SECONDS).iterator().next().getInteger(0);
  }

  private JsonObject api(String method, String path, String body) throws Exception {
    Answer a = send(new String[] {method, path, body}, host(), "Authorization: Bearer " + OPS);
    assertEquals(2, a.status / 100, method + " " + path + ": " + a.text);
    return new JsonObject(a.body());
  }

  private String host() {
    return "Host: 127.0.0.1:" + base.getPort();
  }

  private Answer send(String[] route, String... headers) throws Exception {
    return raw(base, route[0], route[1], route[2], headers);
  }

  record Answer(int status, String text) {
    String body() {
      return text.substring(text.indexOf("\r\n\r\n") + 4);
    }
  }

  /**
   * One raw HTTP/1.1 exchange (java.net.http will not send a foreign Host). An SSE answer never
   * ends, so a 200 event stream is read up to its headers only.
   */
  private static Answer raw(URI base, String method, String path, String body, String... headers) throws Exception {
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      StringBuilder req = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      for (String h : headers) {
        req.append(h).append("\r\n");
      }
      byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      if (body != null) {
        req.append("Content-Type: application/json\r\nContent-Length: ").append(bytes.length).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder text = new StringBuilder();
      List<Byte> unused = new ArrayList<>();
      byte[] buf = new byte[8192];
      int n;
      while ((n = in.read(buf)) > 0) {
        text.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        if (text.indexOf("text/event-stream") > 0 && text.indexOf("\r\n\r\n") > 0) {
          break;
        }
      }
      return new Answer(Integer.parseInt(text.substring(9, 12)), text.toString());
    }
  }
}
