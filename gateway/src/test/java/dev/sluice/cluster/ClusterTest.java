package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ClusterConfig;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.McpHttpClient.SseEvent;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Three nodes on the clustered event bus (Hazelcast, TCP-IP members on 127.0.0.1 only): a session
 * created on one node is served through the others, its events reach whichever node holds the
 * client's stream, and a session whose node is gone answers 404.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ClusterTest {

  /** Generous for the other tests here, small enough to exhaust in a few calls. */
  private static final int QUERIES_PER_MINUTE = 24;
  private final List<Gateway> nodes = new ArrayList<>();
  private List<String> members;
  private String name;
  private ConnectionConfig lite;
  private Path dir;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @BeforeAll
  void start() throws Exception {
    Path dir = Files.createTempDirectory("sluice-cluster");
    Path db = dir.resolve("c.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
      c.createStatement().execute("INSERT INTO t VALUES (1), (2), (3)");
    }
    List<Integer> ports = List.of(freePort(), freePort(), freePort());
    members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
    name = "sluice-test-" + UUID.randomUUID();
    lite = new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, null, 1, 64,
        10_000, 100, 1_000);
    this.dir = dir;
    List<CompletableFuture<Gateway>> starting = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Path state = Files.createDirectories(dir.resolve("node" + i));
      starting.add(Gateway.startClustered(TestGateway.config(ServerConfig.defaults(), List.of(lite), state)
          .withLimits(new dev.sluice.config.LimitsConfig(QUERIES_PER_MINUTE, 0, 0))
          .withCluster(new ClusterConfig(true, name, "127.0.0.1", ports.get(i), members, false, null)))
          .toCompletionStage().toCompletableFuture());
    }
    for (CompletableFuture<Gateway> f : starting) {
      nodes.add(f.get(120, TimeUnit.SECONDS));
    }
  }

  @AfterAll
  void stop() throws Exception {
    for (Gateway g : nodes) {
      g.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  private McpHttpClient on(int node, McpHttpClient session) {
    McpHttpClient c = new McpHttpClient(nodes.get(node).url());
    c.sessionId = session.sessionId;
    c.protocolVersion = session.protocolVersion;
    return c;
  }

  @Test
  void aSessionFromOneNodeIsServedByEveryNode() throws Exception {
    McpHttpClient a = new McpHttpClient(nodes.get(0).url());
    a.initialize(ProtocolRevision.LATEST);
    McpHttpClient b = on(1, a);
    McpHttpClient c = on(2, a);

    JsonObject viaB = b.callTool("sql_execution", new JsonObject().put("connectionId", "db")
        .put("sql", "SELECT count(*) AS n FROM t")).getJsonObject("result");
    assertFalse(viaB.getBoolean("isError"), viaB.encode());
    assertEquals(3, viaB.getJsonObject("structuredContent").getJsonArray("rows").getJsonArray(0).getInteger(0));

    // progress events and the result travel back through node C to this client (a call that runs
    // well past the shard's stream delay: a quicker one is answered as JSON, without progress)
    JsonObject call = McpHttpClient.request(7, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "db").put("sql", "SELECT id FROM t WHERE "
            + "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) "
            + "SELECT count(*) FROM c) > 0"))
        .put("_meta", new JsonObject().put("progressToken", "p")));
    List<SseEvent> events = McpHttpClient.readEvents(c.postStream(call, Map.of()).body(), Integer.MAX_VALUE);
    assertTrue(events.stream().anyMatch(e -> "notifications/progress".equals(e.message().getString("method"))),
        events.toString());
    assertEquals(3, events.get(events.size() - 1).message().getJsonObject("result")
        .getJsonObject("structuredContent").getInteger("rowCount"));

    // the GET stream is held on C; a server-initiated message of A's session arrives there
    c.call("logging/setLevel", new JsonObject().put("level", "info"));
    HttpResponse<InputStream> get = c.getStream(Map.of());
    assertEquals(200, get.statusCode());
    CompletableFuture<List<SseEvent>> pushed = CompletableFuture.supplyAsync(() -> {
      try {
        return McpHttpClient.readEvents(get.body(), 1);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    JsonObject ingest = b.callTool("memory_ingest", new JsonObject().put("content", "# Cluster note\nHello."))
        .getJsonObject("result");
    assertFalse(ingest.getBoolean("isError"), ingest.encode());
    SseEvent message = pushed.get(30, TimeUnit.SECONDS).get(0);
    assertEquals("notifications/message", message.message().getString("method"), message.message().encode());
  }

  @Test
  void aSessionWhoseNodeIsGoneAnswers404() throws Exception {
    Gateway extra = nodes.get(2);
    McpHttpClient onC = new McpHttpClient(extra.url());
    onC.initialize(ProtocolRevision.LATEST);
    // a session id naming a node that is not in the cluster at all
    McpHttpClient ghost = on(0, onC);
    ghost.sessionId = "deadbeef.0." + "x".repeat(24);
    assertEquals(404, ghost.post(McpHttpClient.request(1, "ping", new JsonObject()), Map.of()).status());
  }

  /**
   * Runs last: the node it drains stays draining. The session lives on an extra node without rate
   * limits, because the rate-limit test may have spent this minute's cluster-wide budget.
   */
  @Test
  @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
  void aDrainingNodeWaitsForTheCallsItRelays() throws Exception {
    int port = freePort();
    List<String> all = new ArrayList<>(members);
    all.add("127.0.0.1:" + port);
    Gateway unlimited = Gateway.startClustered(TestGateway.config(ServerConfig.defaults(), List.of(lite),
            Files.createDirectories(dir.resolve("unlimited")))
        .withCluster(new ClusterConfig(true, name, "127.0.0.1", port, all, false, null)))
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    try {
      McpHttpClient owner = new McpHttpClient(unlimited.url());
      owner.initialize(ProtocolRevision.LATEST);
      McpHttpClient viaB = on(1, owner);
      Gateway b = nodes.get(1);
      // about a second of SQLite work on the session's node, asked through node B
      CompletableFuture<JsonObject> slow = CompletableFuture.supplyAsync(() -> {
        try {
          return viaB.callTool("sql_execution", new JsonObject().put("connectionId", "db").put("sql",
              "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c"))
              .getJsonObject("result");
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      for (int i = 0; i < 500 && b.metrics().relayedCallsInFlight() == 0; i++) {
        Thread.sleep(10);
      }
      assertEquals(1, b.metrics().relayedCallsInFlight());
      assertEquals(0, b.metrics().callsInFlight(), "node B only relays the call");
      CompletableFuture<Integer> drained = b.drain(30_000).toCompletionStage().toCompletableFuture();
      assertFalse(drained.isDone() && !slow.isDone(), "B counted itself drained while it relayed a call");
      JsonObject result = slow.get(30, TimeUnit.SECONDS);
      assertFalse(result.getBoolean("isError"), result.encode());
      assertEquals(3_000_000, result.getJsonObject("structuredContent").getJsonArray("rows").getJsonArray(0)
          .getInteger(0));
      assertEquals(0, drained.get(10, TimeUnit.SECONDS));
      assertEquals(0, b.metrics().relayedCallsInFlight());
    } finally {
      unlimited.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  /** Acceptance 5: members are listed, never discovered, and every member address is on loopback. */
  @Test
  void clusterTrafficNeverLeavesLoopback() {
    com.hazelcast.config.Config hz = dev.sluice.gateway.HazelcastSetup.config(
        new ClusterConfig(true, "x", "127.0.0.1", 5701, List.of("127.0.0.1:5701", "127.0.0.1:5702"), false, null));
    com.hazelcast.config.JoinConfig join = hz.getNetworkConfig().getJoin();
    assertFalse(join.getMulticastConfig().isEnabled(), "multicast join is off");
    assertFalse(join.getAutoDetectionConfig().isEnabled(), "auto-detection is off");
    assertTrue(join.getTcpIpConfig().isEnabled());
    assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702"), join.getTcpIpConfig().getMembers());
    assertEquals(List.of("127.0.0.1"), List.copyOf(hz.getNetworkConfig().getInterfaces().getInterfaces()));
    assertEquals("false", hz.getProperty("hazelcast.phone.home.enabled"));

    var instances = com.hazelcast.core.Hazelcast.getAllHazelcastInstances();
    assertEquals(3, instances.size());
    for (var hzi : instances) {
      for (var m : hzi.getCluster().getMembers()) {
        assertTrue(m.getAddress().getHost().startsWith("127."), "member " + m.getAddress() + " is not on loopback");
      }
      assertEquals(3, hzi.getCluster().getMembers().size());
    }
  }

  /**
   * One principal's budget is spent once across the cluster, whichever nodes its calls reach. Runs
   * after every test that needs the budget, since it leaves this minute's budget spent.
   */
  @Test
  @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 1)
  void rateLimitBudgetsAreClusterWide() throws Exception {
    for (int attempt = 0; attempt < 3; attempt++) {
      // Start in a window this test has not touched, with time to spare: an attempt that straddled
      // a minute boundary has spent part of the next window's budget too.
      long left = 60_000 - System.currentTimeMillis() % 60_000;
      if (attempt > 0 || left < 20_000) {
        Thread.sleep(left + 200);
      }
      long window = System.currentTimeMillis() / 60_000;
      List<McpHttpClient> sessions = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        McpHttpClient c = new McpHttpClient(nodes.get(i).url());
        c.initialize(ProtocolRevision.LATEST);
        sessions.add(c);
      }
      int admitted = 0;
      JsonObject refusal = null;
      for (int i = 0; i < 3 * QUERIES_PER_MINUTE && refusal == null; i++) {
        JsonObject r = sessions.get(i % 3).callTool("sql_execution", new JsonObject().put("connectionId", "db")
            .put("sql", "SELECT 1 AS one")).getJsonObject("result");
        if (r.getBoolean("isError")) {
          refusal = r;
        } else {
          admitted++;
        }
      }
      boolean refused = refusal != null;
      List<JsonObject> afterwards = new ArrayList<>();
      for (McpHttpClient c : sessions) {
        afterwards.add(c.callTool("sql_execution", new JsonObject().put("connectionId", "db")
            .put("sql", "SELECT 1 AS one")).getJsonObject("result"));
      }
      if (System.currentTimeMillis() / 60_000 != window) {
        continue; // the minute turned mid-test and refilled the budget: measure again
      }
      assertTrue(refused, "a node admitted more than the cluster-wide budget");
      // the other tests of this class may have spent a few statements of this window
      assertTrue(admitted <= QUERIES_PER_MINUTE && admitted >= QUERIES_PER_MINUTE - 8,
          "admitted " + admitted + ", then " + refusal.encode());
      for (JsonObject r : afterwards) {
        assertTrue(r.getBoolean("isError"), "every node refuses once the budget is spent: " + r.encode());
        JsonObject e = McpHttpClient.errorBody(r);
        assertEquals("rate_limit_exceeded", e.getString("error_type"), e.encode());
        assertTrue(e.getString("message").contains("cluster-wide"), e.encode());
        assertTrue(e.getLong("retryAfterMs") > 0 && e.getLong("retryAfterMs") <= 60_000, e.encode());
      }
      return;
    }
    throw new AssertionError("three minute boundaries in a row interrupted the measurement");
  }

  /** Node ids are stable (derived from host:port unless set) and unique: a second holder is refused. */
  @Test
  void aNodeWhoseIdIsTakenIsRefusedAndTheHolderKeepsServing() throws Exception {
    McpHttpClient onA = new McpHttpClient(nodes.get(0).url());
    onA.initialize(ProtocolRevision.LATEST);
    int port = freePort();
    List<String> all = new ArrayList<>(members);
    all.add("127.0.0.1:" + port);
    var impostor = Gateway.startClustered(TestGateway.config(ServerConfig.defaults(), List.of(lite),
            Files.createDirectories(dir.resolve("impostor")))
        .withCluster(new ClusterConfig(true, name, "127.0.0.1", port, all, false, nodes.get(0).nodeId())))
        .toCompletionStage().toCompletableFuture();
    java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
        java.util.concurrent.ExecutionException.class, () -> impostor.get(120, TimeUnit.SECONDS));
    assertTrue(refused.getCause().getMessage().contains("is already used by the member at"), refused.getMessage());
    Thread.sleep(2_000); // the impostor has left the cluster; node A must not be taken for gone
    McpHttpClient viaB = on(1, onA);
    JsonObject r = viaB.callTool("connection_list", new JsonObject()).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    assertEquals(new ClusterConfig(true, name, "127.0.0.1", 5801, members, false, null).resolvedNodeId(),
        new ClusterConfig(true, "other", "127.0.0.1", 5801, List.of("127.0.0.1:5801"), false, null).resolvedNodeId(),
        "the id depends on the address only: a node restarted there keeps it");
  }
}
