package dev.sluice.mcp.tool;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * What a tool declares to clients in tools/list. The product's tools keep theirs as data, one
 * {@code tools/<name>.yaml} resource each ({@link #resource}); the class of a tool keeps only its
 * behaviour.
 *
 * @param inputSchema JSON Schema 2020-12 object schema; arguments are validated against it before
 *     the handler runs
 * @param outputSchema JSON Schema of structuredContent on success; null when the tool has none
 * @param annotations behaviour hints (readOnlyHint, destructiveHint, idempotentHint,
 *     openWorldHint)
 * @param appResourceUri the {@code ui://} resource that renders the tool's results (MCP Apps,
 *     {@code _meta.ui.resourceUri} in the spec file); listed only to clients that declared MCP
 *     Apps support, null when the tool has none
 */
public record ToolSpec(
    String name,
    String title,
    String description,
    JsonObject inputSchema,
    JsonObject outputSchema,
    JsonObject annotations,
    String appResourceUri) {

  /** A tool without a result viewer. */
  public ToolSpec(String name, String title, String description, JsonObject inputSchema, JsonObject outputSchema,
      JsonObject annotations) {
    this(name, title, description, inputSchema, outputSchema, annotations, null);
  }

  /** Where the spec files live on the class path. */
  public static final String RESOURCE_DIR = "tools/";

  private static final YAMLMapper YAML = new YAMLMapper();

  /**
   * Reads {@code tools/<name>.yaml}. A missing or malformed file is a packaging bug, so it fails
   * loudly when the tool class loads; ToolSpecFilesTest finds it at build time.
   */
  public static ToolSpec resource(String name) {
    String path = RESOURCE_DIR + name + ".yaml";
    try (InputStream in = ToolSpec.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("no tool spec " + path + " on the class path");
      }
      return fromJson(new JsonObject(YAML.readValue(in, Map.class)).copy());
    } catch (IOException e) {
      throw new UncheckedIOException("tool spec " + path + ": " + e.getMessage(), e);
    }
  }

  private static ToolSpec fromJson(JsonObject j) {
    JsonObject ui = j.getJsonObject("_meta", new JsonObject()).getJsonObject("ui", new JsonObject());
    return new ToolSpec(j.getString("name"), j.getString("title"), j.getString("description"),
        j.getJsonObject("inputSchema"), j.getJsonObject("outputSchema"), j.getJsonObject("annotations"),
        ui.getString("resourceUri"));
  }

  /**
   * The tools/list entry for a client that declared MCP Apps support: {@link #toJson()} plus
   * {@code _meta.ui.resourceUri} when the tool has a viewer.
   */
  public JsonObject toJson(boolean apps) {
    JsonObject j = toJson();
    if (apps && appResourceUri != null) {
      j.put("_meta", new JsonObject().put("ui", new JsonObject().put("resourceUri", appResourceUri)));
    }
    return j;
  }

  /** The tools/list entry every other client gets; a fresh copy, so whoever sends it cannot change the spec. */
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
    return j.copy();
  }
}
