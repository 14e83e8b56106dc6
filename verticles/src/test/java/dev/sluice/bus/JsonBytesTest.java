package dev.sluice.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The streaming encoder writes the same JSON as Vert.x's own, and reads it back the same. */
class JsonBytesTest {

  /** A value only databind knows how to write: the streaming encoder must hand it over. */
  public record Pojo(String name, int size) {
  }

  private static JsonObject sample() {
    return new JsonObject().put("s", "quote \" backslash \\ newline \n tab \t nul \u0000 é 漢 😀")
        .put("i", 42).put("l", Long.MAX_VALUE).put("d", 1.5e-300).put("big", new BigDecimal("12345678901234567890.5"))
        .put("b", true).put("n", (Object) null).put("bytes", "x".getBytes(StandardCharsets.UTF_8))
        .put("when", Instant.parse("2026-11-29T06:40:00.123Z"))
        .put("a", new JsonArray().add(1).add("two").addNull().add(new JsonObject().put("k", List.of(1, 2))))
        .put("m", Map.of("inner", "v"))
        .put("long", "y".repeat(20_000));
  }

  @Test
  void aBufferIsWhatVertxWouldWrite() {
    JsonObject o = sample();
    assertEquals(Json.encodeToBuffer(o).toString(), JsonBytes.buffer(o).toString());
    assertEquals(o, JsonBytes.decode(JsonBytes.buffer(o)));
    assertEquals("[1,\"a\"]", JsonBytes.buffer(new JsonArray().add(1).add("a")).toString());
    assertEquals("\"text\"", JsonBytes.buffer("text").toString());
    assertEquals("null", JsonBytes.buffer(null).toString());
  }

  @Test
  void aValueTheStreamingEncoderDoesNotKnowFallsBackToDatabind() {
    JsonObject o = new JsonObject().put("before", 1).put("pojo", new Pojo("p", 3)).put("after", "z");
    String expected = Json.encodeToBuffer(o).toString();
    assertEquals(expected, JsonBytes.buffer(o).toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("prefix ".getBytes(StandardCharsets.UTF_8));
    JsonBytes.write(o, out);
    assertEquals("prefix " + expected, out.toString(StandardCharsets.UTF_8));
  }
}
