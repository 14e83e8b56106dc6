package dev.sluice.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A JsonObject on JsonFields behaves as one on Vert.x's own map, and is written the same. */
class JsonFieldsTest {

  private static JsonObject fill(JsonObject o) {
    for (int i = 0; i < 20; i++) {
      o.put("k" + i, i % 3 == 0 ? null : i % 3 == 1 ? "v" + i : new JsonObject().put("n", i));
    }
    return o.put("k3", "replaced").put("arr", new JsonArray().add(1).add(JsonFields.object(1).put("x", "y")));
  }

  @Test
  void behavesAsALinkedHashMap() {
    JsonObject compact = fill(JsonFields.object(2));
    JsonObject plain = fill(new JsonObject());
    assertEquals(plain, compact);
    assertEquals(compact, plain);
    assertEquals(plain.hashCode(), compact.hashCode());
    assertEquals(new ArrayList<>(plain.fieldNames()), new ArrayList<>(compact.fieldNames()));
    assertEquals("replaced", compact.getString("k3"));
    assertTrue(compact.containsKey("k0"));
    assertNull(compact.getValue("k0"));
    assertFalse(compact.containsKey("nope"));
    assertEquals(21, compact.size());

    assertEquals("v4", compact.remove("k4"));
    plain.remove("k4");
    assertEquals(plain, compact);
    assertEquals(new ArrayList<>(plain.fieldNames()), new ArrayList<>(compact.fieldNames()));

    Iterator<Map.Entry<String, Object>> it = compact.iterator();
    it.next();
    it.remove();
    plain.remove("k0");
    assertEquals(plain, compact);

    assertEquals(plain, compact.copy());
    compact.clear();
    assertTrue(compact.isEmpty());
    compact.put("again", 1);
    assertEquals(new JsonObject().put("again", 1), compact);
  }

  @Test
  void iteratorEntriesWriteThrough() {
    JsonObject compact = JsonFields.object(2).put("a", 1).put("b", 2);
    for (Map.Entry<String, Object> e : compact.getMap().entrySet()) {
      e.setValue(((Integer) e.getValue()) * 10);
    }
    assertEquals(new JsonObject().put("a", 10).put("b", 20), compact);
    List<String> seen = new ArrayList<>();
    compact.getMap().forEach((k, v) -> seen.add(k + v));
    assertEquals(List.of("a10", "b20"), seen);
  }

  @Test
  void writtenAsVertxWritesTheSameObject() {
    JsonObject compact = fill(JsonFields.object(4));
    String expected = Json.encodeToBuffer(fill(new JsonObject())).toString();
    assertEquals(expected, JsonBytesTest.text(compact));
    assertEquals(expected, compact.encode());
    assertEquals(fill(new JsonObject()), JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(JsonBytesTest.text(compact))));
  }

  @Test
  void aCopyKeepsFieldOrderAtEveryDepthAndSharesNothing() {
    String text = "{\"z\":1,\"y\":{\"q\":[{\"k2\":1,\"k1\":2}],\"p\":\"s\"},\"x\":[1,{\"b\":1,\"a\":2}],\"w\":null}";
    JsonObject parsed = (JsonObject) JsonBytes.decode(io.vertx.core.buffer.Buffer.buffer(text));
    assertEquals(JsonFields.class, parsed.getMap().getClass());
    JsonObject copy = JsonFields.copy(parsed);
    assertEquals(text, copy.encode());
    assertEquals(parsed, copy);
    // Vert.x's own copy of the same object: equal, but its fields in a HashMap's order
    assertEquals(parsed, parsed.copy());
    copy.getJsonObject("y").getJsonArray("q").getJsonObject(0).put("k3", 3);
    copy.getJsonArray("x").add(2);
    copy.put("v", 0);
    assertEquals(text, parsed.encode(), "the original is untouched");
    // an object on any other map is copied as copy() copies it
    JsonObject plain = new JsonObject().put("b", 1).put("a", new JsonArray().add(1));
    assertEquals(plain.encode(), JsonFields.copy(plain).encode());
  }
}
