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

  static JsonObject arrayOf(JsonObject items) {
    return new JsonObject().put("type", "array").put("items", items);
  }

  /** An output schema whose required properties are each a list of objects. */
  static JsonObject listsOfObjects(String... names) {
    JsonObject properties = new JsonObject();
    JsonArray required = new JsonArray();
    for (String name : names) {
      properties.put(name, arrayOf(object()));
      required.add(name);
    }
    return object().put("properties", properties).put("required", required);
  }

  /**
   * The arguments of a tool that runs one statement: connectionId, sql and one boolean switch
   * that defaults to false.
   */
  static JsonObject statementArguments(String sqlDescription, String switchName, String switchDescription) {
    return object()
        .put("properties", new JsonObject()
            .put("connectionId", connectionId())
            .put("sql", string(sqlDescription).put("minLength", 1))
            .put(switchName, new JsonObject().put("type", "boolean").put("default", false)
                .put("description", switchDescription)))
        .put("required", new JsonArray().add("connectionId").add("sql"))
        .put("additionalProperties", false);
  }

  /** The connectionId argument every connection-scoped tool takes. */
  static JsonObject connectionId() {
    return string("Connection id from connection_list").put("minLength", 1);
  }

  static JsonObject integer(String description, int min, int max) {
    return new JsonObject().put("type", "integer").put("minimum", min).put("maximum", max)
        .put("description", description);
  }
}
