package dev.sluice.mcp.tool;

import dev.sluice.bus.JsonFields;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A tool's successful outcome: the structured content (an object matching the tool's
 * outputSchema) and the text rendering for clients that ignore structuredContent.
 *
 * @param content MCP content blocks; when null a single text block with {@code text} is used
 */
public record ToolResult(JsonObject structured, String text, JsonArray content) {

  public static ToolResult of(JsonObject structured, String text) {
    return new ToolResult(structured, text, null);
  }

  /** The CallToolResult body. */
  public JsonObject toCallResult(boolean includeStructured) {
    JsonArray blocks = content != null ? content
        : new JsonArray().add(JsonFields.object(2).put("type", "text").put("text", text));
    JsonObject r = JsonFields.object(3).put("content", blocks);
    if (includeStructured && structured != null) {
      r.put("structuredContent", structured);
    }
    return r.put("isError", false);
  }
}
