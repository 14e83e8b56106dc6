package dev.sluice.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ClusterConfig;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on the clustered bus (Hazelcast, TCP-IP members on 127.0.0.1): the console of one node
 * lists the other node's session and running query, and its cancel stops that query at the engine;
 * the same for a stateless (2026-07-28) call, which the node running it reports itself.
 */
class ConsoleClusterTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void oneNodesConsoleSeesAndCancelsAnotherNodesCall() throws Exception {
    TestDatabases.requirePostgres();
    Path dir = Files.createTempDirectory("sluice-console-cluster");
    ConnectionConfig pg = new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
        null, null, null, "scratch", 2, 16, 60_000, 1_000, 10_000);
    List<Integer> ports = List.of(freePort(), freePort());
    List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
    String name = "sluice-console-" + UUID.randomUUID();
    List<CompletableFuture<Gateway>> starting = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path state = Files.createDirectories(dir.resolve("node" + i));
      starting.add(Gateway.startClustered(TestGateway.config(ServerConfig.defaults(), List.of(pg), state)
              .withCluster(new ClusterConfig(true, name, "127.0.0.1", ports.get(i), members, false, null)))
          .toCompletionStage().toCompletableFuture());
    }
    List<Gateway> nodes = new ArrayList<>();
    Vertx vertx = Vertx.vertx();
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    try {
      for (CompletableFuture<Gateway> f : starting) {
        nodes.add(f.get(120, TimeUnit.SECONDS));
      }
      McpHttpClient agent = new McpHttpClient(nodes.get(0).url());
      agent.initialize(ProtocolRevision.LATEST);
      String marker = "console_cluster_" + Long.toHexString(System.nanoTime());
      CompletableFuture<JsonObject> call = CompletableFuture.supplyAsync(() -> {
        try {
          return agent.callTool("sql_execution", new JsonObject().put("connectionId", "pg")
              .put("sql", "SELECT pg_sleep(30) AS " + marker));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      String console = "http://127.0.0.1:" + nodes.get(1).port();
      JsonObject running = null;
      long deadline = System.currentTimeMillis() + 15_000;
      JsonObject live = null;
      while (running == null && System.currentTimeMillis() < deadline) {
        live = get(console + "/console/api/live");
        for (Object o : live.getJsonArray("calls")) {
          if (String.valueOf(((JsonObject) o).getString("sql")).contains(marker) && running(admin, marker) == 1) {
            running = (JsonObject) o;
          }
        }
        Thread.sleep(100);
      }
      assertTrue(running != null, "node 1's console lists node 0's running call: " + live);
      assertEquals(nodes.get(0).nodeId(), running.getString("node"));
      JsonArray nodeIds = live.getJsonArray("nodes");
      assertTrue(nodeIds.contains(nodes.get(0).nodeId()) && nodeIds.contains(nodes.get(1).nodeId()), live.encode());
      assertTrue(live.getJsonArray("sessions").stream().map(JsonObject.class::cast)
          .anyMatch(s -> agent.sessionId.equals(s.getString("sessionId"))), live.encode());

      HttpResponse<String> cancel = HTTP.send(HttpRequest.newBuilder(URI.create(console + "/console/api/cancel"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("sessionId", running.getString("sessionId"))
              .put("callId", running.getString("callId")).encode())).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, cancel.statusCode(), cancel.body());
      JsonObject result = call.get(10, TimeUnit.SECONDS).getJsonObject("result");
      assertEquals(true, result.getBoolean("isError"), result.encode());
      long gone = System.currentTimeMillis() + 5_000;
      while (running(admin, marker) > 0 && System.currentTimeMillis() < gone) {
        Thread.sleep(50);
      }
      assertEquals(0, running(admin, marker), "the statement ended at the engine");

      // a stateless (2026-07-28) call has no session shard: node 0 reports it itself
      String stateless = "console_cluster_stateless_" + Long.toHexString(System.nanoTime());
      CompletableFuture<JsonObject> statelessCall = CompletableFuture.supplyAsync(() -> {
        try {
          return statelessSleep(nodes.get(0).url(), stateless);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      JsonObject listed = null;
      long listedBy = System.currentTimeMillis() + 15_000;
      while (listed == null && System.currentTimeMillis() < listedBy) {
        live = get(console + "/console/api/live");
        for (Object o : live.getJsonArray("calls")) {
          if (String.valueOf(((JsonObject) o).getString("sql")).contains(stateless) && running(admin, stateless) == 1) {
            listed = (JsonObject) o;
          }
        }
        Thread.sleep(100);
      }
      assertTrue(listed != null, "node 1's console lists node 0's stateless call: " + live);
      assertEquals(true, listed.getBoolean("stateless"), listed.encode());
      assertEquals(nodes.get(0).nodeId(), listed.getString("node"), listed.encode());
      HttpResponse<String> cancelStateless = HTTP.send(HttpRequest.newBuilder(URI.create(console + "/console/api/cancel"))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("statelessId", listed.getString("statelessId"))
              .encode())).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, cancelStateless.statusCode(), cancelStateless.body());
      JsonObject statelessResult = statelessCall.get(10, TimeUnit.SECONDS).getJsonObject("result");
      assertEquals(true, statelessResult.getBoolean("isError"), statelessResult.encode());
      long ended = System.currentTimeMillis() + 5_000;
      while (running(admin, stateless) > 0 && System.currentTimeMillis() < ended) {
        Thread.sleep(50);
      }
      assertEquals(0, running(admin, stateless), "the stateless call's statement ended at the engine");
    } finally {
      for (Gateway g : nodes) {
        g.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** A 2026-07-28 tools/call running pg_sleep(30), answered as JSON (no Accept header: no stream). */
  private static JsonObject statelessSleep(String url, String marker) throws Exception {
    JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", "2026-07-28")
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "cluster-stateless").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", new JsonObject());
    JsonObject request = McpHttpClient.request(1, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "pg").put("sql", "SELECT pg_sleep(30) AS " + marker))
        .put("_meta", meta));
    java.util.Map<String, String> headers = new java.util.HashMap<>(java.util.Map.of("MCP-Protocol-Version",
        "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "sql_execution"));
    headers.put("Accept", null);
    McpHttpClient.Reply r = new McpHttpClient(url).post(request, headers);
    assertEquals(200, r.status(), r.body());
    return r.json();
  }

  private static JsonObject get(String url) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url + ": " + r.body());
    return new JsonObject(r.body());
  }

  private static int running(Pool admin, String marker) throws Exception {
    return admin.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()").execute().await(5, TimeUnit.SECONDS).iterator().next().getInteger(0);
  }
}
