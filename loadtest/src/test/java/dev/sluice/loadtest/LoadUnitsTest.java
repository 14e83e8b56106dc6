package dev.sluice.loadtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadUnitsTest {

  @Test
  void gatewayThreadsAreSortedIntoKindsByTheirKernelNames() {
    // /proc keeps 15 characters of a thread's name
    assertEquals("eventLoops", GatewayProbe.threadKind("vert.x-eventloo"));
    assertEquals("jit", GatewayProbe.threadKind("C2 CompilerThre"));
    assertEquals("jit", GatewayProbe.threadKind("C1 CompilerThre"));
    assertEquals("gc", GatewayProbe.threadKind("GC Thread#1"));
    assertEquals("gc", GatewayProbe.threadKind("G1 Conc#0"));
    assertEquals("gc", GatewayProbe.threadKind("VM Thread"));
    assertEquals("other", GatewayProbe.threadKind("sluice-audit"));
    assertEquals("other", GatewayProbe.threadKind("vert.x-worker-t"));
  }

  @Test
  void sseParserHandlesSplitChunksAndCrLf() {
    List<String> got = new ArrayList<>();
    SseParser p = new SseParser((id, data) -> got.add(id + "|" + data.toString(java.nio.charset.StandardCharsets.UTF_8)));
    p.feed(Buffer.buffer("event: message\r\nid: 7\r\ndata: {\"a\""));
    p.feed(Buffer.buffer(":1}\r\n\r\nid: 8\ndata: {}\n"));
    assertEquals(List.of("7|{\"a\":1}"), got);
    p.feed(Buffer.buffer("\n"));
    assertEquals(List.of("7|{\"a\":1}", "8|{}"), got);
    // two data lines join with a newline; an event's one line outlives the chunk it came in
    Buffer chunk = Buffer.buffer("data: a\ndata: b\n\ndata: {\"c\":2}\n");
    p.feed(chunk);
    chunk.setBytes(0, new byte[chunk.length()]);
    p.feed(Buffer.buffer("\n"));
    assertEquals(List.of("7|{\"a\":1}", "8|{}", "null|a\nb", "null|{\"c\":2}"), got);
  }

  @Test
  void sseParserKeepsCharactersSplitAcrossChunksAndLargeEvents() {
    List<String> got = new ArrayList<>();
    SseParser p = new SseParser((id, data) -> got.add(data.toString(java.nio.charset.StandardCharsets.UTF_8)));
    byte[] euro = "data: \u20ac".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    p.feed(Buffer.buffer(java.util.Arrays.copyOf(euro, euro.length - 1)));
    p.feed(Buffer.buffer(new byte[] {euro[euro.length - 1]}).appendString("\r"));
    p.feed(Buffer.buffer("\n\r\n"));
    assertEquals(List.of("\u20ac"), got);
    String big = "x".repeat(3_000_000);
    Buffer whole = Buffer.buffer("data: " + big + "\n\n");
    for (int i = 0; i < whole.length(); i += 8_192) {
      p.feed(whole.getBuffer(i, Math.min(whole.length(), i + 8_192)));
    }
    assertEquals(big, got.get(1));
  }

  @Test
  void onlyLoopbackTargets() {
    assertTrue(Loopback.isLoopback("127.0.0.1"));
    assertTrue(Loopback.isLoopback("127.9.9.9"));
    assertTrue(Loopback.isLoopback("::1"));
    assertTrue(Loopback.isLoopback("localhost"));
    assertFalse(Loopback.isLoopback("1.2.3.4"));
    assertFalse(Loopback.isLoopback("example.com"));
    Loopback.require("http://[::1]:8080/mcp");
    assertThrows(IllegalArgumentException.class, () -> Loopback.require("http://db.example:7878/mcp"));
    assertThrows(IllegalArgumentException.class,
        () -> LoadOptions.parse(new String[] {"--direct", "postgresql://u@db.example:5432/x"}));
  }

  @Test
  void mixAndOptions() {
    Map<String, Scenario> cat = ScenarioCatalog.forDialect("postgres", "pg");
    Mix mix = Mix.parse("tiny=3,runaway=1,tool:custom=1", cat);
    assertEquals("tiny=3,runaway=1,custom=1", mix.toString());
    assertEquals("tiny=3", mix.directOnly().toString());
    assertTrue(cat.get("runaway").arguments().getString("sql").contains("generate_series"));
    assertThrows(IllegalArgumentException.class, () -> Mix.parse("nope=1", cat));
    LoadOptions o = LoadOptions.parse(new String[] {"--agents", "5", "--duration", "1500ms", "--think-time", "2s",
        "--sweep", "1,10", "--sse"});
    assertEquals(1.5, o.durationSeconds);
    assertEquals(2000, o.thinkTimeMs);
    assertEquals(List.of(1, 10), o.sweep);
    assertTrue(o.sse);
  }

  /** Several nodes behind a simulated load balancer: every node gets traffic until it is marked down. */
  /** Rounds pair each gateway run with its own round's direct run, and the figure is a ratio of means. */
  @Test
  void alternatedRoundsCompareWithinARoundAndAverageEachSide() {
    io.vertx.core.json.JsonArray runs = new io.vertx.core.json.JsonArray();
    double[][] perRound = {{5000, 25000}, {6000, 15000}, {4000, 20000}};
    for (int r = 0; r < perRound.length; r++) {
      for (String mode : r % 2 == 0 ? List.of("gateway", "direct") : List.of("direct", "gateway")) {
        double calls = perRound[r]["gateway".equals(mode) ? 0 : 1];
        runs.add(new io.vertx.core.json.JsonObject().put("mode", mode).put("agents", 20).put("round", r + 1)
            .put("throughput", calls).put("latencyMs", new io.vertx.core.json.JsonObject().put("p50", 1.0)
                .put("p99", "gateway".equals(mode) ? 8.0 : 2.0)));
      }
    }
    io.vertx.core.json.JsonObject cmp = Comparison.of(runs);
    assertEquals(3, cmp.getJsonArray("pairs").size(), "one pair per round, not every gateway run with every direct one");
    assertEquals(0.2, cmp.getJsonArray("pairs").getJsonObject(0).getDouble("throughputRatio"));
    assertEquals(0.4, cmp.getJsonArray("pairs").getJsonObject(1).getDouble("throughputRatio"));
    assertEquals(0.25, cmp.getDouble("throughputRatio"), "5,000 / 20,000: the means' ratio");
    assertEquals(4.0, cmp.getDouble("p99Ratio"));
    assertEquals(3, cmp.getInteger("rounds"));
    io.vertx.core.json.JsonObject one = Comparison.of(new io.vertx.core.json.JsonArray(List.of(runs.getValue(0),
        runs.getValue(1))));
    assertEquals(0.2, one.getDouble("throughputRatio"));
    assertEquals(1, one.getInteger("rounds"));
  }

  @Test
  void routesSpreadOverNodesAndDropADeadOne() {
    Routes one = Routes.of("http://127.0.0.1:1/mcp");
    assertFalse(one.clustered());
    one.markDown("http://127.0.0.1:1/mcp");
    assertEquals("http://127.0.0.1:1/mcp", one.pick(), "a single node is never taken out");
    Routes three = Routes.of("http://127.0.0.1:1/mcp,http://127.0.0.1:2/mcp,http://127.0.0.1:3/mcp");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < 300; i++) {
      seen.add(three.pick());
    }
    assertEquals(3, seen.size());
    three.markDown("http://127.0.0.1:1/mcp");
    for (int i = 0; i < 300; i++) {
      assertFalse(three.pick().endsWith(":1/mcp"));
    }
    LoadOptions drill = LoadOptions.parse(new String[] {"--url", "http://127.0.0.1:1/mcp,http://127.0.0.1:2/mcp",
        "--kill-pid", "42", "--kill-after", "20s"});
    assertEquals(42, drill.killPid);
    assertEquals(20.0, drill.killAfterSeconds);
    assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse(new String[] {"--kill-pid", "42"}),
        "a drill needs nodes to fail over to");
    assertThrows(IllegalArgumentException.class, () -> LoadOptions.parse(new String[] {
        "--url", "http://127.0.0.1:1/mcp,http://db.example:2/mcp"}), "every node must be on loopback");
  }
}
