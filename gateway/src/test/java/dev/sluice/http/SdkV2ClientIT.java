package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.sql.Driver;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.ToolTour;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import org.junit.jupiter.api.Test;

/**
 * The official TypeScript SDK 2.x client ({@code @modelcontextprotocol/client}) pinned to revision
 * 2026-07-28 against a real gateway: it must find 2026-07-28 offered by server/discover, then takes
 * every tool through its success path and each of its error types (the same tour as the 2025-era
 * {@link ToolTourIT}), without a session, over Streamable HTTP and over stdio; and it sees progress,
 * cancels a running query (PostgreSQL stops it: pg_stat_activity), and runs long calls as tasks
 * (sdk2-client-features.mjs).
 */
class SdkV2ClientIT {

  /**
   * Progress, cancellation at the engine and the Tasks extension. The statements carry a marker;
   * while the script runs this test watches pg_stat_activity: the statement to cancel and the task
   * to cancel must each be seen running, and neither may be running once the script is done (they
   * sleep 60 s, far longer than the script's wait after each cancel).
   */
  @Test
  void pinnedClientSeesProgressCancelsAtTheEngineAndRunsTasks() throws Exception {
    NodeClients.node();
    TestDatabases.requirePostgres();
    Path state = Files.createTempDirectory("sdk2-features");
    String marker = TestDatabases.uniqueName("sdk2");
    List<ConnectionConfig> connections = List.of(new ConnectionConfig("pg", Driver.POSTGRES,
        TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null, null, 2, 16, 120_000, 1_000, 10_000));
    Vertx vertx = Vertx.vertx();
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), connections, state), null)) {
      CompletableFuture<NodeClients.Run> script = CompletableFuture.supplyAsync(() -> {
        try {
          return NodeClients.run(300, "sdk2-client-features.mjs", gw.url(), "pg", marker);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Set<String> seenRunning = new TreeSet<>();
      while (!script.isDone()) {
        for (String what : List.of("cancel", "taskcancel")) {
          if (running(admin, marker + "_" + what) > 0) {
            seenRunning.add(what);
          }
        }
        Thread.sleep(100);
      }
      NodeClients.Run r = script.get();
      assertEquals(0, r.exit(), r.output());
      JsonObject summary = ToolTour.json(r.output());
      System.out.println("SDK 2.x pinned to 2026-07-28: " + summary.getJsonObject("checks").encode());
      assertEquals(Set.of("cancel", "taskcancel"), seenRunning, "both statements were seen running: " + r.output());
      assertEquals(0, running(admin, marker + "_cancel"), "closing the stream stopped the statement");
      assertEquals(0, running(admin, marker + "_taskcancel"), "tasks/cancel stopped the statement");
    } finally {
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static int running(Pool admin, String marker) throws Exception {
    return admin.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()").execute().await(5, TimeUnit.SECONDS).iterator().next().getInteger(0);
  }

  @Test
  void pinnedClientOverHttpSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    try (TestGateway gw = TestGateway.start(ConfigLoader.load(tour.config, Map.of()), null)) {
      JsonObject transport = new JsonObject().put("kind", "http").put("url", gw.url()).put("sessions", new JsonObject()
          .put("main", ToolTour.WRITER).put("reader", ToolTour.READER).put("throttled", ToolTour.THROTTLED));
      JsonObject summary = tour.run("sdk2-client-tour.mjs", transport, tour.calls("http"));
      ToolTour.assertEveryToolSucceeded("TypeScript SDK 2.x pinned to 2026-07-28", summary, Set.of());
    }
  }

  @Test
  void pinnedClientOverStdioSeesEverySuccessAndEveryErrorInBand() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    JsonObject transport = tour.stdioTransport();
    JsonObject summary = tour.run("sdk2-client-tour.mjs", transport, tour.calls("stdio"));
    // stdio serves the default principal, which never writes: sql_write answers permission_denied there
    ToolTour.assertEveryToolSucceeded("TypeScript SDK 2.x pinned to 2026-07-28", summary, Set.of("sql_write"));
  }
}
