package dev.sluice.approved;

import dev.sluice.bus.JsonFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * A vetted, parameterized query. Its SQL uses SQL Client Templates placeholders ({@code #{name}});
 * values are bound by the driver, never spliced into the text.
 *
 * @param parameters name → {type, description, default?, enum?, minimum?, maximum?, secret?}
 * @param grantsTables tables this query may read even where the caller's policy denies them
 *     (the author vouches for what the query exposes; every run is audited)
 */
public record ApprovedQuery(
    String id,
    String name,
    String description,
    String connectionId,
    String sql,
    JsonObject parameters,
    int limitDefault,
    int limitMax,
    boolean showSql,
    boolean asTool,
    List<String> grantsTables,
    String source) {

  /** The JSON Schema of {@code parameters} (the inputSchema of its own tool, minus {@code limit}). */
  public JsonObject parameterSchema() {
    JsonObject props = new JsonObject();
    JsonArray required = new JsonArray();
    parameters.forEach(e -> {
      JsonObject p = ((JsonObject) e.getValue()).copy();
      p.remove("secret");
      props.put(e.getKey(), p);
      if (!p.containsKey("default")) {
        required.add(e.getKey());
      }
    });
    return new JsonObject().put("type", "object").put("properties", props).put("required", required)
        .put("additionalProperties", false);
  }

  public Set<String> secretParameters() {
    return parameters.fieldNames().stream()
        .filter(n -> parameters.getJsonObject(n).getBoolean("secret", false))
        .collect(java.util.stream.Collectors.toSet());
  }

  /** The given parameters with defaults filled in. */
  public JsonObject withDefaults(JsonObject given) {
    JsonObject out = given == null ? new JsonObject() : JsonFields.copy(given);
    parameters.forEach(e -> {
      JsonObject p = (JsonObject) e.getValue();
      if (!out.containsKey(e.getKey()) && p.containsKey("default")) {
        out.put(e.getKey(), p.getValue("default"));
      }
    });
    return out;
  }

  /** A copy safe for the audit trail: secret values replaced. */
  public JsonObject redacted(JsonObject given) {
    JsonObject out = given == null ? new JsonObject() : JsonFields.copy(given);
    secretParameters().forEach(n -> {
      if (out.containsKey(n)) {
        out.put(n, "[redacted]");
      }
    });
    return out;
  }
}
