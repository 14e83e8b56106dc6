package dev.sluice.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.Tokens;
import dev.sluice.sql.Driver;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The operator's console in a real browser (Debian's Chromium through playwright-core,
 * console-browser.mjs): an agent connects with the TypeScript SDK, the page shows its session and
 * then its running pg_sleep, the operator cancels it with the keyboard, and PostgreSQL's
 * pg_stat_activity confirms the statement ended at the engine; then the same for a 2026-07-28
 * stateless call, whose row is marked as having no session. Screenshots stay in
 * gateway/target/console-screenshots.
 */
class ConsoleBrowserIT {

  private static final int SLEEP_SECONDS = 60;

  @Test
  void anOperatorSeesARunningQueryInTheBrowserAndCancelsItAtTheEngine() throws Exception {
    NodeClients.node();
    TestDatabases.requirePostgres();
    String ops = Tokens.newToken();
    String agent = Tokens.newToken();
    Path dir = Files.createTempDirectory("sluice-console-browser");
    ConnectionConfig pg = new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
        null, null, null, "scratch", 2, 16, 120_000, 1_000, 10_000);
    SluiceConfig config = TestGateway.config(ServerConfig.defaults(), List.of(pg), dir).withPrincipals(List.of(
        new PrincipalConfig("ops", List.of(Tokens.sha256Hex(ops)), List.of(), null, null, List.of(), true),
        new PrincipalConfig("agent", List.of(Tokens.sha256Hex(agent)), List.of())));
    String marker = "console_browser_" + Long.toHexString(System.nanoTime());
    String statelessMarker = "console_stateless_" + Long.toHexString(System.nanoTime());
    Path shots = NodeClients.projectRoot().resolve("gateway/target/console-screenshots");
    Vertx vertx = Vertx.vertx();
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    try (TestGateway gw = TestGateway.start(config, null)) {
      URI u = URI.create(gw.url());
      String base = "http://127.0.0.1:" + u.getPort();
      CompletableFuture<NodeClients.Run> browser = CompletableFuture.supplyAsync(() -> {
        try {
          return NodeClients.run(180, "console-browser.mjs", base, agent, ops, "pg",
              "SELECT pg_sleep(" + SLEEP_SECONDS + ") AS " + marker, marker, shots.toString(),
              "SELECT pg_sleep(" + SLEEP_SECONDS + ") AS " + statelessMarker, statelessMarker);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // watch the engine while the page works: the statement must be seen running, then gone
      AtomicInteger seenRunning = new AtomicInteger();
      AtomicInteger statelessSeenRunning = new AtomicInteger();
      Files.createDirectories(shots);
      while (!browser.isDone()) {
        if (seenRunning.accumulateAndGet(running(admin, marker), Math::max) == 1) {
          // the page may cancel now: the statement is at the engine
          Files.writeString(shots.resolve(marker + ".running"), "");
        }
        if (statelessSeenRunning.accumulateAndGet(running(admin, statelessMarker), Math::max) == 1) {
          Files.writeString(shots.resolve(statelessMarker + ".running"), "");
        }
        Thread.sleep(50);
      }
      Files.deleteIfExists(shots.resolve(marker + ".running"));
      Files.deleteIfExists(shots.resolve(statelessMarker + ".running"));
      NodeClients.Run r = browser.get();
      assertEquals(0, r.exit(), r.output());
      JsonObject summary = new JsonObject(r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1));
      System.out.println("console browser test: " + summary.encodePrettily());
      assertEquals(1, seenRunning.get(), "pg_stat_activity showed the statement while the page listed it");
      assertEquals(0, running(admin, marker), "the statement ended at the engine after the cancel");
      assertTrue(summary.getString("sessionSeen").contains("agent"), summary.encode());
      assertTrue(summary.getString("callSeen").contains(marker), summary.encode());
      assertTrue(summary.getLong("agentElapsedMs") < SLEEP_SECONDS * 1000L / 2, "the agent was answered long "
          + "before pg_sleep(" + SLEEP_SECONDS + ") would end: " + summary.getLong("agentElapsedMs") + " ms");
      JsonObject result = summary.getJsonObject("agentResult");
      assertEquals(true, result.getBoolean("isError"), result.encode());
      assertTrue(result.encode().contains("cancelled: the gateway's operator (ops) cancelled this call"),
          result.encode());
      // the stateless call: listed as such, cancelled at the engine, its request answered in band
      assertEquals(1, statelessSeenRunning.get(), "pg_stat_activity showed the stateless call's statement");
      assertEquals(0, running(admin, statelessMarker), "the stateless call's statement ended at the engine");
      assertTrue(summary.getString("statelessSeen").contains("stateless, no session"), summary.encode());
      assertTrue(summary.getLong("statelessElapsedMs") < SLEEP_SECONDS * 1000L / 2, summary.encode());
      JsonObject statelessResult = summary.getJsonObject("statelessResult").getJsonObject("result");
      assertEquals(true, statelessResult.getBoolean("isError"), summary.encode());
      assertTrue(statelessResult.encode().contains("the gateway's operator (ops) cancelled this call"),
          summary.encode());
      assertTrue(summary.getString("charts").startsWith("peak "), summary.encode());
      assertTrue(summary.getInteger("chartedCalls") >= 1, "the chart counts the cancelled call: " + summary.encode());
      assertTrue(summary.getJsonObject("a11y").getJsonArray("unlabelled").isEmpty(), summary.encode());
      assertEquals(0, summary.getJsonObject("a11y").getInteger("unnamedButtons"), summary.encode());
      for (Object shot : summary.getJsonArray("screenshots")) {
        assertTrue(Files.size(Path.of((String) shot)) > 10_000, "screenshot " + shot + " has content");
      }
    } finally {
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static int running(Pool admin, String marker) throws Exception {
    return admin.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()").execute().await(5, TimeUnit.SECONDS).iterator().next().getInteger(0);
  }
}
