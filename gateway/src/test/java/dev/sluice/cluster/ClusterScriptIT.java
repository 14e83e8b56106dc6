package dev.sluice.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.GatewayJar;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The documented three-node cluster ({@code loadtest/bin/cluster.sh}), as separate gateway
 * processes sharing a PostgreSQL state store: the official TypeScript SDK client uses one session
 * through all three nodes, the SDK 2.x client pinned to 2026-07-28 goes round-robin over them
 * without a session, then one node is killed with SIGKILL while it holds memory_ingest runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ClusterScriptIT {

  private static final Pattern NODE = Pattern.compile("node (\\d) pid (\\d+) url (\\S+)");

  private Process script;
  private final List<Long> pids = new ArrayList<>();
  private final List<String> urls = new ArrayList<>();
  private String table;

  @BeforeAll
  void startCluster() throws Exception {
    TestDatabases.requirePostgres();
    NodeClients.node();
    table = TestDatabases.uniqueName("sluice_state_it");
    Path results = Files.createTempDirectory("sluice-cluster-it");
    int base = 20_000 + ThreadLocalRandom.current().nextInt(200) * 100;
    ProcessBuilder pb = new ProcessBuilder("bash", NodeClients.projectRoot().resolve("loadtest/bin/cluster.sh").toString())
        .redirectErrorStream(true);
    pb.environment().putAll(Map.of("RESULTS", results.toString(), "BASE_CLUSTER_PORT", String.valueOf(base),
        "BASE_HTTP_PORT", String.valueOf(base + 50), "STATE_POSTGRES_URL",
        TestDatabases.pgUrl(TestDatabases.PG_DATABASE), "STATE_TABLE", table, "LEASE_MS", "3000", "GATEWAY_JAVA_OPTS", GatewayJar.JIT));
    script = pb.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8));
    String line;
    StringBuilder seen = new StringBuilder();
    while ((line = out.readLine()) != null && !line.contains(" is up")) {
      seen.append(line).append('\n');
      Matcher m = NODE.matcher(line);
      if (m.find()) {
        pids.add(Long.parseLong(m.group(2)));
        urls.add(m.group(3));
      }
    }
    assertEquals(3, urls.size(), "cluster.sh did not start three nodes:\n" + seen);
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (script != null) {
      script.destroy();
      script.waitFor(60, TimeUnit.SECONDS);
    }
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    if (table != null) {
      TestDatabases.dropPostgres("TABLE " + table, "SEQUENCE " + table + "_seq", "TABLE " + table + "_audit");
    }
  }

  /** Acceptance 1 and the first half of 3, through a real third-party client. */
  @Test
  @org.junit.jupiter.api.Order(1)
  void oneSdkSessionThroughThreeNodes() throws Exception {
    NodeClients.Run r = NodeClients.run(180, "sdk-client-cluster.mjs", urls.get(0), urls.get(1), urls.get(2), "demo");
    assertEquals(0, r.exit(), r.output());
    JsonObject s = new JsonObject(r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1));
    assertTrue(s.getBoolean("ok"), s.encode());
    assertTrue(s.getString("sessionId").startsWith(nodeIdOf(0) + "."), "the session lives on node A: " + s.encode());
    assertTrue(s.getBoolean("pushedOnC"), s.encode());
    System.out.println("cluster SDK check: " + s.encode());
  }

  /**
   * Revision 2026-07-28 behind a load balancer with no affinity: the TypeScript SDK 2.x client
   * pinned to it sends each request to the next node; every answer comes from the node that got the
   * request (nothing forwarded), with 0 errors; a long query is a task created on one node and
   * polled and fetched through the others, and one cancelled through a node that does not run it.
   */
  @Test
  @org.junit.jupiter.api.Order(2)
  void pinnedSdkV2ClientRoundRobinWithoutForwarding() throws Exception {
    NodeClients.Run r = NodeClients.run(300, "sdk2-client-cluster.mjs", "demo", "6", "30", urls.get(0), urls.get(1),
        urls.get(2));
    assertEquals(0, r.exit(), r.output());
    JsonObject s = new JsonObject(r.output().substring(r.output().indexOf('{'), r.output().lastIndexOf('}') + 1));
    System.out.println("cluster round-robin, SDK 2.x pinned to 2026-07-28: " + s.encode());
    assertEquals(180, s.getInteger("calls"), s.encode());
    assertEquals(0, s.getInteger("errors"), s.encode());
    assertEquals(0, s.getInteger("forwarded"), s.encode());
    assertEquals(3, s.getJsonObject("perNode").size(), s.encode());
    // the turn is shared with the agents' connect probes, so a third each is near, not exact
    s.getJsonObject("perNode").forEach(e -> assertTrue(((Number) e.getValue()).intValue() >= 45,
        "each node answered about a third: " + s.encode()));
    assertEquals("completed", s.getJsonObject("task").getString("status"), s.encode());
    assertTrue(s.getJsonObject("task").getInteger("polledElsewhere") > 0, s.encode());
    assertEquals("cancelled", s.getJsonObject("cancel").getString("status"), s.encode());
  }

  /**
   * The second half of 3 and the node-loss rules: node A dies holding ingest runs; node C completes
   * them, a session owned by B carries on, and A's session answers 404 so its client re-initializes.
   */
  @Test
  @org.junit.jupiter.api.Order(3)
  void runsOfAKilledNodeAreCompletedByAnother() throws Exception {
    McpHttpClient onB = new McpHttpClient(urls.get(1));
    onB.initialize(ProtocolRevision.LATEST);
    McpHttpClient onA = new McpHttpClient(urls.get(0));
    onA.initialize(ProtocolRevision.LATEST);
    McpHttpClient victim = new McpHttpClient(urls.get(0));
    victim.initialize(ProtocolRevision.LATEST);
    // Ingest runs queued on A by six agents, still being queued when A dies: on a fast machine A
    // had finished all of a fixed 180 before the kill, so the senders go on until it.
    List<String> runIds = Collections.synchronizedList(new ArrayList<>());
    List<String> headings = Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.AtomicBoolean killing = new java.util.concurrent.atomic.AtomicBoolean();
    String filler = "Detail line about orders and payments across the cluster.\n".repeat(600);
    ExecutorService senders = Executors.newFixedThreadPool(6);
    List<Future<?>> sent = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      int thread = t;
      sent.add(senders.submit(() -> {
        McpHttpClient c = new McpHttpClient(urls.get(0));
        c.initialize(ProtocolRevision.LATEST);
        for (int i = 0; i < 200 && !killing.get(); i++) {
          String heading = "Node loss note " + thread + "-" + i;
          JsonObject res;
          try {
            res = c.callTool("memory_ingest", new JsonObject().put("content", "# " + heading + "\n" + filler))
                .getJsonObject("result");
          } catch (Exception cut) {
            if (killing.get()) {
              return null; // A is going: this call's run may or may not have been stored
            }
            throw cut;
          }
          assertFalse(res.getBoolean("isError"), res.encode());
          synchronized (runIds) {
            runIds.add(res.getJsonObject("structuredContent").getString("runId"));
            headings.add(heading);
          }
        }
        return null;
      }));
    }
    long queueing = System.currentTimeMillis() + 120_000;
    while (runIds.size() < 60 && System.currentTimeMillis() < queueing) {
      Thread.sleep(50);
    }
    assertTrue(runIds.size() >= 60, "runs queued on A: " + runIds.size());

    // a long call of a session owned by A, in flight through B when A dies
    McpHttpClient victimViaB = new McpHttpClient(urls.get(1));
    victimViaB.sessionId = victim.sessionId;
    victimViaB.protocolVersion = victim.protocolVersion;
    JsonObject slow = McpHttpClient.request(99, "tools/call", new JsonObject().put("name", "sql_execution")
        .put("arguments", new JsonObject().put("connectionId", "demo").put("sql", "WITH RECURSIVE c(x) AS "
            + "(SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c")));
    java.util.concurrent.CompletableFuture<List<McpHttpClient.SseEvent>> inFlight =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          try {
            return McpHttpClient.readEvents(victimViaB.postStream(slow, Map.of()).body(), Integer.MAX_VALUE);
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        });
    Thread.sleep(700); // the statement is running on A

    killing.set(true);
    ProcessHandle a = ProcessHandle.of(pids.get(0)).orElseThrow();
    long killedAt = System.nanoTime();
    a.destroyForcibly();
    a.onExit().get(30, TimeUnit.SECONDS);
    try {
      for (Future<?> f : sent) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      senders.shutdownNow();
    }
    List<McpHttpClient.SseEvent> events = inFlight.get(30, TimeUnit.SECONDS);
    long cutOffMs = (System.nanoTime() - killedAt) / 1_000_000;
    JsonObject last = events.get(events.size() - 1).message();
    assertEquals(-32001, last.getJsonObject("error").getInteger("code"), "the call in flight on the dead node "
        + "ends with an error, it does not hang: " + last.encode());
    assertEquals(99, last.getInteger("id"));

    McpHttpClient onC = new McpHttpClient(urls.get(2));
    onC.initialize(ProtocolRevision.LATEST);
    int unfinishedAtKill = 0;
    for (String id : runIds) {
      String st = status(onC, id);
      unfinishedAtKill += st.equals("completed") || st.equals("failed") ? 0 : 1;
    }
    assertTrue(unfinishedAtKill > 0, "the kill should leave runs unfinished (all " + runIds.size() + " had finished)");

    // B's own session is untouched by A's death
    JsonObject list = onB.callTool("connection_list", new JsonObject()).getJsonObject("result");
    assertFalse(list.getBoolean("isError"), list.encode());

    // A's session: once the cluster has noticed A is gone (Hazelcast heartbeat, 10 s), any node answers 404
    McpHttpClient viaB = new McpHttpClient(urls.get(1));
    viaB.sessionId = onA.sessionId;
    viaB.protocolVersion = onA.protocolVersion;
    int code = 0;
    long deadline = System.currentTimeMillis() + 40_000;
    while (System.currentTimeMillis() < deadline && code != 404) {
      code = viaB.post(McpHttpClient.request(1, "ping", new JsonObject()), Map.of()).status();
      Thread.sleep(code == 404 ? 0 : 500);
    }
    assertEquals(404, code, "a session whose node died answers 404");

    long started = System.currentTimeMillis();
    int completed = 0;
    for (String id : runIds) {
      String st = "queued";
      for (int i = 0; i < 1_200 && !st.equals("completed") && !st.equals("failed"); i++) {
        st = status(onC, id);
        if (!st.equals("completed") && !st.equals("failed")) {
          Thread.sleep(100);
        }
      }
      assertTrue(st.equals("completed") || st.equals("failed"), id + " still " + st);
      completed += st.equals("completed") ? 1 : 0;
    }
    assertEquals(runIds.size(), completed, "distinct headings: every run completes");
    String lastHeading = headings.get(headings.size() - 1);
    JsonObject found = onC.callTool("wiki_search", new JsonObject().put("query", lastHeading)).getJsonObject("result");
    assertTrue(found.encode().contains(lastHeading.toLowerCase(java.util.Locale.ROOT).replace(' ', '-')), found.encode());
    System.out.println("call in flight through B on the killed node ended with -32001 after " + cutOffMs + " ms");
    System.out.println("kill -9 of node A left " + unfinishedAtKill + " of " + runIds.size()
        + " runs unfinished; the surviving nodes completed all of them within "
        + (System.currentTimeMillis() - started) + " ms of the check");
  }

  private String nodeIdOf(int node) throws Exception {
    McpHttpClient c = new McpHttpClient(urls.get(node));
    return c.getPath("/health", Map.of()).json().getString("nodeId");
  }

  /** The run's status, or {@code error: <text>} for an error result (asserted on by the callers). */
  private static String status(McpHttpClient c, String runId) throws Exception {
    JsonObject result = c.callTool("memory_ingest_status", new JsonObject().put("runId", runId))
        .getJsonObject("result");
    if (result.getBoolean("isError", false)) {
      String text = result.getJsonArray("content").getJsonObject(0).getString("text");
      System.out.println("memory_ingest_status " + runId + " answered an error: " + text);
      return "error: " + text;
    }
    return result.getJsonObject("structuredContent").getString("status");
  }
}
