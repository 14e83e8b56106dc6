package dev.sluice.apps;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The MCP Apps extension (SEP-1865, stable 2026-01-26) as far as negotiation goes: a client that
 * renders apps says so in its capabilities, {@code extensions["io.modelcontextprotocol/ui"].mimeTypes}
 * naming {@code text/html;profile=mcp-app} (at initialize, or in each 2026-07-28 request's envelope).
 * Only such a client is told of the viewer; every other client's tools/list, capabilities and
 * resources stay exactly what they were, since a viewer it cannot render is only noise in its context.
 */
public final class McpApps {

  /** The extension's identifier: its key under the client's and the server's {@code capabilities.extensions}. */
  public static final String EXTENSION_ID = "io.modelcontextprotocol/ui";
  /** The one content type the extension defines for a view. */
  public static final String MIME_TYPE = "text/html;profile=mcp-app";

  private McpApps() {}

  /** Whether a client's capabilities declare the extension with the HTML profile. */
  public static boolean declared(JsonObject clientCapabilities) {
    if (clientCapabilities == null || !(clientCapabilities.getValue("extensions") instanceof JsonObject ext)
        || !(ext.getValue(EXTENSION_ID) instanceof JsonObject ui)) {
      return false;
    }
    return ui.getValue("mimeTypes") instanceof JsonArray types && types.contains(MIME_TYPE);
  }

  /** What the server adds to its capabilities for such a client. */
  public static JsonObject serverExtension() {
    return new JsonObject().put(EXTENSION_ID, new JsonObject().put("mimeTypes", new JsonArray().add(MIME_TYPE)));
  }
}
