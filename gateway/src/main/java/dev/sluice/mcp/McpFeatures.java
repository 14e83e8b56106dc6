package dev.sluice.mcp;

import dev.sluice.apps.McpApps;
import dev.sluice.apps.ResultViewer;
import dev.sluice.mcp.tool.ToolRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Everything a session serves: tools always; resources, prompts and completions only when a
 * provider is registered (the product registers none; the conformance fixtures do). Capabilities
 * in the initialize result follow from what is present. A result viewer (MCP Apps) is offered only
 * to a client that declared the extension ({@link #apps(JsonObject)}): it alone sees the viewer's
 * resource, the tools' {@code _meta.ui} and the extension in the capabilities.
 */
public final class McpFeatures {

  /** Resources: list, templates, read. {@code read} fails with a not-found error for unknown URIs. */
  public interface Resources {
    JsonArray list();

    JsonArray templates();

    /** @return the {@code contents} array, or null when no resource has that URI */
    Future<JsonArray> read(String uri);

    default boolean subscribable() {
      return false;
    }
  }

  /** Prompts: list and get. */
  public interface Prompts {
    JsonArray list();

    /** @return the GetPromptResult, or null when no prompt has that name */
    Future<JsonObject> get(String name, JsonObject arguments);
  }

  /** completion/complete for prompt arguments and resource template variables. */
  public interface Completions {
    Future<JsonObject> complete(JsonObject ref, JsonObject argument, JsonObject context);
  }

  private final String serverName;
  private final String serverVersion;
  private final String instructions;
  private final ToolRegistry tools;
  private Resources resources;
  private Prompts prompts;
  private Completions completions;
  private ResultViewer viewer;

  public McpFeatures(String serverName, String serverVersion, String instructions, ToolRegistry tools) {
    this.serverName = serverName;
    this.serverVersion = serverVersion;
    this.instructions = instructions;
    this.tools = tools;
  }

  public McpFeatures resources(Resources r) {
    this.resources = r;
    return this;
  }

  public McpFeatures prompts(Prompts p) {
    this.prompts = p;
    return this;
  }

  public McpFeatures completions(Completions c) {
    this.completions = c;
    return this;
  }

  /** Offers {@code v} to clients that render MCP Apps. */
  public McpFeatures viewer(ResultViewer v) {
    this.viewer = v;
    return this;
  }

  /** Whether a client with these capabilities is served the result viewer. */
  public boolean apps(JsonObject clientCapabilities) {
    return viewer != null && McpApps.declared(clientCapabilities);
  }

  /** The resources a client sees: the registered provider, with the viewer in front for an apps client. */
  public Resources resources(boolean apps) {
    return apps && viewer != null ? viewer.over(resources) : resources;
  }

  public ToolRegistry tools() {
    return tools;
  }

  public Resources resources() {
    return resources;
  }

  public Prompts prompts() {
    return prompts;
  }

  public Completions completions() {
    return completions;
  }

  public String serverName() {
    return serverName;
  }

  public String serverVersion() {
    return serverVersion;
  }

  public JsonObject capabilities() {
    return capabilities(false);
  }

  /** The capabilities for a client; {@code apps} adds the viewer's resources and the extension. */
  public JsonObject capabilities(boolean apps) {
    JsonObject caps = new JsonObject()
        .put("tools", new JsonObject().put("listChanged", true))
        .put("logging", new JsonObject());
    Resources r = resources(apps);
    if (r != null) {
      caps.put("resources", new JsonObject().put("listChanged", false)
          .put("subscribe", r.subscribable()));
    }
    if (prompts != null) {
      caps.put("prompts", new JsonObject().put("listChanged", false));
    }
    if (completions != null) {
      caps.put("completions", new JsonObject());
    }
    if (apps && viewer != null) {
      caps.put("extensions", McpApps.serverExtension());
    }
    return caps;
  }

  public JsonObject serverInfo() {
    return new JsonObject().put("name", serverName).put("title", "Sluice MCP query gateway")
        .put("version", serverVersion);
  }

  public String instructions() {
    return instructions;
  }
}
