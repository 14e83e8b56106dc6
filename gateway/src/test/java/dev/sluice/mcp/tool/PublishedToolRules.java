package dev.sluice.mcp.tool;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every published tool definition must satisfy, as a list of violations (empty when it is
 * fine). Shared by the check of the spec files and the check of a live tools/list.
 */
final class PublishedToolRules {

  /**
   * The JSON Schema keywords a definition may use: the subset that JSON Schema 2020-12 (our
   * validator, the spec's default) and draft-07 (Ajv as the TypeScript SDK creates it) read alike.
   * Anything else is a foreign key, such as the {@code __absolute_uri__} a compiler leaves behind.
   */
  static final Set<String> KEYWORDS = Set.of("type", "properties", "required", "additionalProperties", "items",
      "enum", "const", "anyOf", "description", "default", "minimum", "maximum", "minLength", "maxLength",
      "minItems", "maxItems", "pattern", "format");

  private PublishedToolRules() {}

  static List<String> violations(JsonObject tool) {
    List<String> out = new ArrayList<>();
    String name = tool.getString("name");
    for (String k : tool.fieldNames()) {
      if (!Set.of("name", "title", "description", "inputSchema", "outputSchema", "annotations").contains(k)) {
        out.add(name + ": foreign key '" + k + "'");
      }
    }
    if (blank(tool.getString("title")) || blank(tool.getString("description"))) {
      out.add(name + ": needs a title and a description");
    }
    JsonObject input = tool.getJsonObject("inputSchema");
    if (input == null || !"object".equals(input.getString("type"))) {
      out.add(name + ": inputSchema must be an object schema");
    } else {
      schema(name + " inputSchema", input, true, out);
      if (!Boolean.FALSE.equals(input.getValue("additionalProperties"))) {
        out.add(name + ": inputSchema must refuse unknown arguments (additionalProperties: false)");
      }
    }
    JsonObject output = tool.getJsonObject("outputSchema");
    if (output == null || !"object".equals(output.getString("type")) || output.getJsonObject("properties") == null
        || output.getJsonObject("properties").isEmpty()) {
      out.add(name + ": needs a typed outputSchema (an object with properties)");
    } else {
      schema(name + " outputSchema", output, false, out);
      output.getJsonObject("properties").forEach(e -> {
        JsonObject p = (JsonObject) e.getValue();
        if (!p.containsKey("type") && !p.containsKey("enum")) {
          out.add(name + " outputSchema: property '" + e.getKey() + "' has no type");
        }
      });
    }
    JsonObject hints = tool.getJsonObject("annotations");
    if (hints == null || !(hints.getValue("readOnlyHint") instanceof Boolean)
        || !(hints.getValue("openWorldHint") instanceof Boolean)) {
      out.add(name + ": annotations need readOnlyHint and openWorldHint");
    } else if (!hints.getBoolean("readOnlyHint") && (!(hints.getValue("destructiveHint") instanceof Boolean)
        || !(hints.getValue("idempotentHint") instanceof Boolean))) {
      out.add(name + ": a tool that writes says whether it is destructive and idempotent");
    } else if (hints.fieldNames().stream().anyMatch(k -> !k.endsWith("Hint"))) {
      out.add(name + ": annotations hold hints only (the title is the tool's own)");
    }
    return out;
  }

  /** Walks a schema: known keywords only; in an input schema, every property described. */
  private static void schema(String where, JsonObject s, boolean input, List<String> out) {
    for (Map.Entry<String, Object> e : s) {
      String k = e.getKey();
      if (!KEYWORDS.contains(k)) {
        out.add(where + ": foreign key '" + k + "'");
        continue;
      }
      Object v = e.getValue();
      switch (k) {
        case "properties" -> ((JsonObject) v).forEach(p -> {
          JsonObject ps = (JsonObject) p.getValue();
          if (input && blank(ps.getString("description"))) {
            out.add(where + ": property '" + p.getKey() + "' has no description");
          }
          schema(where + "/" + p.getKey(), ps, input, out);
        });
        case "items" -> schema(where + "/items", (JsonObject) v, input, out);
        case "anyOf" -> ((JsonArray) v).forEach(a -> schema(where + "/anyOf", (JsonObject) a, input, out));
        case "additionalProperties" -> {
          if (v instanceof JsonObject a) {
            schema(where + "/additionalProperties", a, input, out);
          }
        }
        default -> { }
      }
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
