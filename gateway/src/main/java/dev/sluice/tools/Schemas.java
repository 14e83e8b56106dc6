package dev.sluice.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Tiny builders for the JSON Schema fragments the tool specs repeat. */
final class Schemas {

  private Schemas() {}

  static JsonObject object() {
    return new JsonObject().put("type", "object");
  }

  static JsonObject string() {
    return new JsonObject().put("type", "string");
  }

  static JsonObject string(String description) {
    return string().put("description", description);
  }

  static JsonObject nullable(String type) {
    return new JsonObject().put("type", new JsonArray().add(type).add("null"));
  }

  static JsonObject integer(String description, int min, int max) {
    return new JsonObject().put("type", "integer").put("minimum", min).put("maximum", max)
        .put("description", description);
  }
}
