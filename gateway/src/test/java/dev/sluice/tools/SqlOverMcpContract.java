package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.McpHttpClient.SseEvent;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The SQL tools end to end, per engine: a real gateway, real HTTP, the real database. Subclasses
 * provide the engine's connection, scratch data and dialect.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SqlOverMcpContract {

  protected static final long DEADLINE_MS = 2_000;
  protected TestGateway gw;

  /** Creates scratch objects; returns the connection (id {@code db}) with the given deadline. */
  protected abstract ConnectionConfig setUp(long deadlineMs) throws Exception;

  protected abstract void tearDown() throws Exception;

  /** Qualified name of the scratch table {@code items(id int, name text)} with 5,000 rows. */
  protected abstract String items();

  protected abstract String sleepSql(int seconds, String marker);

  protected abstract String cpuSql(String marker);

  /** Number of statements containing {@code marker} the engine is still running. */
  protected abstract int running(String marker) throws Exception;

  /**
   * Waits until the connection can serve a call at once, however the previous test left it (a
   * SQLite worker killed there is replaced by a cold JVM start that can outlast a deadline).
   */
  protected void awaitAllSlotsReady() throws Exception {
  }

  /** Every test starts on a settled connection: an earlier test's cancel or deadline killed workers. */
  @org.junit.jupiter.api.BeforeEach
  void settle() throws Exception {
    awaitAllSlotsReady();
  }

  @BeforeAll
  void startGateway() throws Exception {
    ConnectionConfig c = setUp(DEADLINE_MS);
    Path dir = Files.createTempDirectory("sluice-sql-mcp");
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(c), dir), null);
  }

  @AfterAll
  void stopGateway() throws Exception {
    if (gw != null) {
      gw.close();
    }
    tearDown();
  }

  private McpHttpClient session() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    return c;
  }

  protected JsonObject sql(McpHttpClient c, String sql, Integer maxRows) throws Exception {
    JsonObject args = new JsonObject().put("connectionId", "db").put("sql", sql);
    if (maxRows != null) {
      args.put("maxRows", maxRows);
    }
    return c.callTool("sql_execution", args).getJsonObject("result");
  }

  @Test
  void rowsStreamWithProgressAndStopAtMaxRows() throws Exception {
    McpHttpClient c = session();
    JsonObject call = McpHttpClient.request(42, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "db")
            // the subquery (a count of four million rows, evaluated once) keeps the call running well past
            // the gateway's 10 ms stream delay: a call answered sooner is one JSON body, without progress
            .put("sql", "SELECT id, name FROM " + items() + " WHERE (SELECT count(*) FROM " + items() + " x CROSS JOIN "
                + items() + " y WHERE x.id <= 2000 AND y.id <= 2000) > 0 ORDER BY id").put("maxRows", 2_500))
        .put("_meta", new JsonObject().put("progressToken", "p")));
    HttpResponse<InputStream> res = c.postStream(call, Map.of());
    List<SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    List<String> stages = events.stream()
        .filter(e -> "notifications/progress".equals(e.message().getString("method")))
        .map(e -> e.message().getJsonObject("params").getString("message")).toList();
    // the answer first: a failed call stops its progress early, and its error says why
    JsonObject result = events.get(events.size() - 1).message().getJsonObject("result");
    assertFalse(result == null || result.getBoolean("isError"), events.get(events.size() - 1).message().encode());
    assertEquals("validating", stages.get(0));
    assertTrue(stages.get(stages.size() - 1).startsWith("fetched 2500 rows"), stages.toString());
    JsonObject s = result.getJsonObject("structuredContent");
    // once running, progress names the query, so another call of the session can query_cancel it
    assertTrue(stages.contains("executing (queryId " + s.getString("queryId") + ")"), stages.toString());
    assertEquals(new JsonArray().add("id").add("name"), s.getJsonArray("headers"));
    assertEquals(2_500, s.getInteger("rowCount"));
    assertEquals(2_500, s.getJsonArray("rows").size());
    assertTrue(s.getBoolean("truncated"));
    assertEquals(1, s.getJsonArray("rows").getJsonArray(0).getInteger(0));
    assertNotNull(s.getString("queryId"));
    assertTrue(result.getJsonArray("content").getJsonObject(0).getString("text").contains("truncated"));
  }

  @Test
  void runawaySleepEndsAtTheDeadlineWhileOthersAreServed() throws Exception {
    runaway(sleepSql(30, "sluice_rs"), "sluice_rs");
  }

  @Test
  void runawayCpuEndsAtTheDeadlineWhileOthersAreServed() throws Exception {
    runaway(cpuSql("sluice_rc"), "sluice_rc");
  }

  private void runaway(String sql, String marker) throws Exception {
    awaitAllSlotsReady();
    McpHttpClient a = session();
    McpHttpClient b = session();
    long start = System.nanoTime();
    CompletableFuture<JsonObject> slow = CompletableFuture.supplyAsync(() -> {
      try {
        return sql(a, sql, null);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    Thread.sleep(300);
    long cheapStart = System.nanoTime();
    JsonObject cheap = sql(b, "SELECT count(*) AS n FROM " + items(), null);
    long cheapMs = (System.nanoTime() - cheapStart) / 1_000_000;
    assertFalse(cheap.getBoolean("isError"), cheap.encode());
    // What matters is that it answered while the runaway still held its slot; a latency bound
    // here would only measure how loaded the CI machine is.
    assertFalse(slow.isDone(), "the runaway is still running when the cheap call has answered (after "
        + cheapMs + " ms)");
    JsonObject err = slow.get(10, TimeUnit.SECONDS);
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(err.getBoolean("isError"));
    assertEquals("timeout", McpHttpClient.errorBody(err).getString("error_type"));
    assertEquals("query exceeded 2s", McpHttpClient.errorBody(err).getString("message"));
    assertTrue(ms < DEADLINE_MS + 1_000, "ended " + ms + " ms after the call started");
    awaitGone(marker);
  }

  @Test
  void notificationsCancelledStopsTheEngineAndSendsNoResult() throws Exception {
    McpHttpClient c = session();
    // no progressToken: answered as one JSON body, so its headers come only when the call ends
    var answer = c.postAsync(McpHttpClient.request(7, "tools/call",
        new JsonObject().put("name", "sql_execution").put("arguments", new JsonObject()
            .put("connectionId", "db").put("sql", sleepSql(30, "sluice_cn")))), Map.of());
    awaitRunning("sluice_cn");
    assertEquals(202, c.post(McpHttpClient.notification("notifications/cancelled",
        new JsonObject().put("requestId", 7)), Map.of()).status());
    HttpResponse<InputStream> res = answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
    List<SseEvent> events = McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    assertTrue(events.stream().noneMatch(e -> e.message().containsKey("result")), events.toString());
    awaitGone("sluice_cn");
  }

  @Test
  void queryCancelStopsAQueryOfTheSameSession() throws Exception {
    McpHttpClient c = session();
    JsonObject call = McpHttpClient.request(8, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "db").put("sql", sleepSql(30, "sluice_qc")))
        .put("_meta", new JsonObject().put("progressToken", "q")));
    HttpResponse<InputStream> res = c.postStream(call, Map.of());
    awaitRunning("sluice_qc");
    // the queryId is not in progress messages, so take it from the other session's view: ask
    // query_cancel with a wrong id first (not found), then cancel through a fresh listing
    JsonObject missing = c.callTool("query_cancel", new JsonObject().put("queryId", "nope")).getJsonObject("result");
    assertEquals("not_found", McpHttpClient.errorBody(missing).getString("error_type"));
    McpHttpClient other = session();
    assertTrue(other.callTool("query_cancel", new JsonObject().put("queryId", "nope"))
        .getJsonObject("result").getBoolean("isError"));
    assertEquals(202, c.post(McpHttpClient.notification("notifications/cancelled",
        new JsonObject().put("requestId", 8)), Map.of()).status());
    McpHttpClient.readEvents(res.body(), Integer.MAX_VALUE);
    awaitGone("sluice_qc");
  }

  @Test
  void writesAreRefusedInBand() throws Exception {
    McpHttpClient c = session();
    JsonObject r = sql(c, "DELETE FROM " + items(), null);
    assertTrue(r.getBoolean("isError"));
    assertEquals("validation_failed", McpHttpClient.errorBody(r).getString("error_type"));
    JsonObject count = sql(c, "SELECT count(*) AS n FROM " + items(), null);
    assertEquals("5000", String.valueOf(count.getJsonObject("structuredContent").getJsonArray("rows")
        .getJsonArray(0).getValue(0)));
  }

  @Test
  void unknownTableSuggestsTheRealOne() throws Exception {
    McpHttpClient c = session();
    String typo = items().replace("items", "itemz");
    JsonObject r = sql(c, "SELECT * FROM " + typo, null);
    assertTrue(r.getBoolean("isError"));
    JsonObject body = McpHttpClient.errorBody(r);
    assertEquals("table_not_found", body.getString("error_type"));
    assertTrue(body.encode().contains("items"), body.encode());
  }

  @Test
  void explainAndConnectionList() throws Exception {
    McpHttpClient c = session();
    JsonObject plan = c.callTool("sql_explain", new JsonObject().put("connectionId", "db")
        .put("sql", "SELECT * FROM " + items() + " WHERE id = 3")).getJsonObject("result");
    assertFalse(plan.getBoolean("isError"), plan.encode());
    assertFalse(plan.getJsonObject("structuredContent").getJsonArray("plan").isEmpty());
    JsonObject list = c.callTool("connection_list", new JsonObject()).getJsonObject("result");
    JsonObject conn = list.getJsonObject("structuredContent").getJsonArray("connections").getJsonObject(0);
    assertEquals("db", conn.getString("id"));
    assertEquals("up", conn.getString("status"));
    assertNotNull(conn.getString("serverVersion"));
    assertTrue(conn.getBoolean("readOnly"));
    assertEquals(DEADLINE_MS, conn.getLong("queryTimeoutMs"));
  }

  /**
   * Generous: on SQLite the call may first wait for a worker process to start (the one an earlier
   * test's cancel killed is being replaced), seconds on a loaded machine. Not what is measured.
   */
  private void awaitRunning(String marker) throws Exception {
    long end = System.currentTimeMillis() + 30_000;
    while (running(marker) == 0) {
      assertTrue(System.currentTimeMillis() < end, "query " + marker + " never started");
      Thread.sleep(50);
    }
  }

  private void awaitGone(String marker) throws Exception {
    long end = System.currentTimeMillis() + 3_000;
    while (running(marker) > 0) {
      assertTrue(System.currentTimeMillis() < end, "the engine still runs " + marker);
      Thread.sleep(50);
    }
  }
}
