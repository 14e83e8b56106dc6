package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.Tokens;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Rate limits through real HTTP: budgets hold exactly under concurrency and refusals say when to retry. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RateLimitsOverMcpTest {

  private static final String BURST = Tokens.newToken();
  private static final String ROWS = Tokens.newToken();
  private static final String CONC = Tokens.newToken();
  private TestGateway gw;

  @BeforeAll
  void start() throws Exception {
    Path dir = Files.createTempDirectory("sluice-limits");
    Path db = dir.resolve("n.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE n (i INTEGER PRIMARY KEY)");
      c.createStatement().execute("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 200)"
          + " INSERT INTO n SELECT x FROM s");
    }
    ConnectionConfig lite = new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, null, 4, 1_000,
        30_000, 1_000, 10_000);
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(lite), dir).withPrincipals(List.of(
        new PrincipalConfig("burst", List.of(Tokens.sha256Hex(BURST)), List.of(), new LimitsConfig(30, 0, 0)),
        new PrincipalConfig("rows", List.of(Tokens.sha256Hex(ROWS)), List.of(), new LimitsConfig(0, 100, 0)),
        new PrincipalConfig("conc", List.of(Tokens.sha256Hex(CONC)), List.of(), new LimitsConfig(0, 0, 2)))), null);
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
  }

  private McpHttpClient as(String token) throws Exception {
    return gw.session(token);
  }

  private static JsonObject sql(McpHttpClient c, String sql) throws Exception {
    return c.callTool("sql_execution", new JsonObject().put("connectionId", "db").put("sql", sql))
        .getJsonObject("result");
  }

  @Test
  void fiftySessionsOfOnePrincipalGetExactlyTheBudget() throws Exception {
    List<McpHttpClient> sessions = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      sessions.add(as(BURST));
    }
    ExecutorService pool = Executors.newFixedThreadPool(50);
    try {
      long t0 = System.nanoTime();
      List<Future<JsonObject>> calls = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        McpHttpClient c = sessions.get(i % 50);
        calls.add(pool.submit(() -> sql(c, "SELECT 1 AS one")));
      }
      int admitted = 0;
      int refused = 0;
      for (Future<JsonObject> f : calls) {
        JsonObject r = f.get(60, TimeUnit.SECONDS);
        if (r.getBoolean("isError")) {
          JsonObject e = McpHttpClient.errorBody(r);
          assertEquals("rate_limit_exceeded", e.getString("error_type"), e.encode());
          assertTrue(e.getLong("retryAfterMs") > 0, e.encode());
          refused++;
        } else {
          admitted++;
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      // a 30-per-minute bucket starts full and refills half a query per second
      int ceiling = 30 + (int) Math.floor(seconds * 0.5);
      System.out.printf("rate limit: %d admitted, %d refused in %.2f s (budget %d)%n", admitted, refused, seconds,
          ceiling);
      assertTrue(admitted >= 30 && admitted <= ceiling, admitted + " admitted, budget " + ceiling);
      assertEquals(150, admitted + refused);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rowsPerHourAndConcurrencyLimitsRefuseWithTheirName() throws Exception {
    McpHttpClient rows = as(ROWS);
    assertFalse(sql(rows, "SELECT i FROM n LIMIT 80").getBoolean("isError"));
    assertFalse(sql(rows, "SELECT i FROM n LIMIT 80").getBoolean("isError"), "a big result may overdraw once");
    JsonObject over = McpHttpClient.errorBody(sql(rows, "SELECT 1"));
    assertEquals("rows_per_hour", over.getString("limit"), over.encode());
    assertTrue(over.getLong("retryAfterMs") > 60 * 36_000L - 1, over.encode());

    McpHttpClient conc = as(CONC);
    String slow = "WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 3000000) "
        + "SELECT count(*) FROM s";
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<JsonObject>> calls = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        calls.add(pool.submit(() -> sql(conc, slow)));
        Thread.sleep(100);
      }
      int refused = 0;
      for (Future<JsonObject> f : calls) {
        JsonObject r = f.get(60, TimeUnit.SECONDS);
        if (r.getBoolean("isError")) {
          assertEquals("concurrent_queries", McpHttpClient.errorBody(r).getString("limit"), r.encode());
          refused++;
        }
      }
      assertEquals(1, refused);
    } finally {
      pool.shutdownNow();
    }
  }
}
