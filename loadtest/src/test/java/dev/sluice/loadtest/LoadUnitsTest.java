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
  void sseParserHandlesSplitChunksAndCrLf() {
    List<String> got = new ArrayList<>();
    SseParser p = new SseParser((id, data) -> got.add(id + "|" + data));
    p.feed(Buffer.buffer("event: message\r\nid: 7\r\ndata: {\"a\""));
    p.feed(Buffer.buffer(":1}\r\n\r\nid: 8\ndata: {}\n"));
    assertEquals(List.of("7|{\"a\":1}"), got);
    p.feed(Buffer.buffer("\n"));
    assertEquals(List.of("7|{\"a\":1}", "8|{}"), got);
  }

  @Test
  void sseParserKeepsCharactersSplitAcrossChunksAndLargeEvents() {
    List<String> got = new ArrayList<>();
    SseParser p = new SseParser((id, data) -> got.add(data));
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
    assertFalse(Loopback.isLoopback("10.0.0.1"));
    assertFalse(Loopback.isLoopback("example.com"));
    Loopback.require("http://[::1]:8080/mcp");
    assertThrows(IllegalArgumentException.class, () -> Loopback.require("http://192.168.1.2:7878/mcp"));
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
}
