package dev.sluice.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
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

  /** What {@link JsonBytes#pooled} wrote, its buffer released. */
  static String text(Object json) {
    io.netty.buffer.ByteBuf b = JsonBytes.pooled(json);
    try {
      return b.toString(StandardCharsets.UTF_8);
    } finally {
      assertEquals(true, b.release());
    }
  }

  @Test
  void aPooledBufferHoldsWhatVertxWouldWriteValueAfterValue() {
    // one generator per thread: nothing of one value may leak into the next
    for (int round = 0; round < 3; round++) {
      assertEquals("{\"a\":1}", text(new JsonObject().put("a", 1)));
      assertEquals("[]", text(new JsonArray()));
    }
    assertEquals(Json.encodeToBuffer(sample()).toString(), text(sample()));
  }

  @Test
  void appendingKeepsWhatTheBufferHeldEvenWhenItFallsBack() {
    io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer(4);
    b.writeBytes("data: ".getBytes(StandardCharsets.US_ASCII));
    JsonObject withPojo = new JsonObject().put("before", 1).put("pojo", new Pojo("p", 3));
    JsonBytes.append(withPojo, b);
    b.writeByte('|');
    JsonBytes.append(sample(), b);
    assertEquals("data: " + Json.encodeToBuffer(withPojo) + "|" + Json.encodeToBuffer(sample()),
        b.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aBufferIsWhatVertxWouldWrite() {
    JsonObject o = sample();
    assertEquals(Json.encodeToBuffer(o).toString(), text(o));
    assertEquals(o, JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(text(o))));
    assertEquals("[1,\"a\"]", text(new JsonArray().add(1).add("a")));
    assertEquals("\"text\"", text("text"));
    assertEquals("null", text(null));
  }

  @Test
  void aValueTheStreamingEncoderDoesNotKnowFallsBackToDatabind() {
    JsonObject o = new JsonObject().put("before", 1).put("pojo", new Pojo("p", 3)).put("after", "z");
    String expected = Json.encodeToBuffer(o).toString();
    assertEquals(expected, text(o));
    assertEquals("{\"a\":1}", text(new JsonObject().put("a", 1)), "the next value gets a fresh generator");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("prefix ".getBytes(StandardCharsets.UTF_8));
    JsonBytes.write(o, out);
    assertEquals("prefix " + expected, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void decodingReadsWhatVertxReads() {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",/* a comment */\"params\":{\"name\":\"x\","
        + "\"arguments\":{\"n\":1.5,\"big\":12345678901234567890,\"t\":true,\"f\":false,\"z\":null,"
        + "\"a\":[1,[2,{}],\"s\"],\"dup\":1,\"dup\":2}}}";
    Object ours = JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(text));
    assertEquals(Json.decodeValue(text), ours);
    assertEquals(Json.decodeValue(text).toString(), ours.toString());
    JsonObject args = ((JsonObject) ours).getJsonObject("params").getJsonObject("arguments");
    assertEquals(2, args.getInteger("dup"));
    assertEquals(JsonFields.class, args.getMap().getClass());
    assertEquals(new JsonArray().add(1).add(2), JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer("[1,2]")));
    assertEquals("s", JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer("\"s\"")));
    // a slice of a larger buffer: only its own bytes are read
    io.vertx.core.buffer.Buffer whole = io.vertx.core.buffer.Buffer.buffer("xx{\"a\":1}yy");
    assertEquals(new JsonObject().put("a", 1), JsonBytes.decode(whole.slice(2, 9)));
  }

  @Test
  void aLargeObjectIsAnOrdinaryMapAndBadInputIsADecodeException() {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      b.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
    }
    String text = b.append('}').toString();
    JsonObject big = (JsonObject) JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(text));
    assertEquals(java.util.LinkedHashMap.class, big.getMap().getClass());
    assertEquals(new JsonObject(text), big);
    assertEquals(new ArrayList<>(new JsonObject(text).fieldNames()), new ArrayList<>(big.fieldNames()));
    for (String bad : List.of("", "{", "{\"a\":1} 2", "[1,]", "{\"a\" 1}", "nul", "{'a':1}")) {
      org.junit.jupiter.api.Assertions.assertThrows(io.vertx.core.json.DecodeException.class,
          () -> JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(bad)), bad);
    }
  }

  @Test
  void aWriterWritesValueAfterValueAsWriteWould() {
    ByteArrayOutputStream ours = new ByteArrayOutputStream();
    JsonBytes.Writer w = new JsonBytes.Writer(ours);
    StringBuilder expected = new StringBuilder();
    Object[] values = {sample(), JsonFields.object(2).put("a", 1).put("b", List.of("x")),
        new JsonObject().put("pojo", new Pojo("p", 3)), new JsonArray().add(1), "text", 5, null, sample()};
    for (Object v : values) {
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      JsonBytes.write(v, one);
      expected.append(one.toString(StandardCharsets.UTF_8)).append('\n');
      w.write(v);
      ours.write('\n');
    }
    assertEquals(expected.toString(), ours.toString(StandardCharsets.UTF_8));
    // the stream may be reset between values, as the audit writer does between lines
    ours.reset();
    w.write(new JsonObject().put("after", "reset"));
    assertEquals("{\"after\":\"reset\"}", ours.toString(StandardCharsets.UTF_8));
  }
}
