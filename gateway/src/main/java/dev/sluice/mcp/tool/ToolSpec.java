package dev.sluice.mcp.tool;

import io.vertx.core.json.JsonObject;

/**
 * What a tool declares to clients in tools/list.
 *
 * @param inputSchema JSON Schema 2020-12 object schema; arguments are validated against it before
 *     the handler runs
 * @param outputSchema JSON Schema of structuredContent on success; null when the tool has none
 * @param annotations behaviour hints (readOnlyHint, destructiveHint, idempotentHint,
 *     openWorldHint)
 */
public record ToolSpec(
    String name,
    String title,
    String description,
    JsonObject inputSchema,
    JsonObject outputSchema,
    JsonObject annotations) {

  /** Annotations of a tool that only reads from the configured databases. */
  public static JsonObject readOnlyAnnotations(String title, boolean idempotent) {
    return new JsonObject()
        .put("title", title)
        .put("readOnlyHint", true)
        .put("destructiveHint", false)
        .put("idempotentHint", idempotent)
        .put("openWorldHint", false);
  }

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("name", name);
    if (title != null) {
      j.put("title", title);
    }
    j.put("description", description).put("inputSchema", inputSchema);
    if (outputSchema != null) {
      j.put("outputSchema", outputSchema);
    }
    if (annotations != null) {
      j.put("annotations", annotations);
    }
    return j;
  }
}
