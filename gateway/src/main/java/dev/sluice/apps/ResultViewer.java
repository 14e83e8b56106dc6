package dev.sluice.apps;

import dev.sluice.mcp.McpFeatures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The result viewer: one self-contained HTML page (its script and style inline, no network) that an
 * MCP Apps host renders in a sandboxed iframe for sql_execution, sl_query and sql_compare results.
 * The page shows only what the tool result and its arguments already hold; its one action, a
 * re-run with a larger maxRows, is a tools/call through the host, so every policy applies again.
 *
 * <p>As resources it serves that page alone, in front of whatever other provider is registered
 * (the product has none): {@link #over(McpFeatures.Resources)}.
 */
public final class ResultViewer {

  /** The page's address, named by the tools' {@code _meta.ui.resourceUri} in their spec files. */
  public static final String URI = "ui://sluice/result-viewer";
  private static final String PAGE = "apps/result-viewer.html";

  private final String html;

  private ResultViewer(String html) {
    this.html = html;
  }

  /** Reads the page from the class path once, at start (a missing page is a packaging bug). */
  public static ResultViewer load() {
    try (InputStream in = ResultViewer.class.getClassLoader().getResourceAsStream(PAGE)) {
      if (in == null) {
        throw new IllegalStateException("no " + PAGE + " on the class path");
      }
      return new ResultViewer(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(PAGE + ": " + e.getMessage(), e);
    }
  }

  public String html() {
    return html;
  }

  /** Its resources/list entry. */
  public JsonObject listed() {
    return new JsonObject().put("uri", URI).put("name", "result_viewer").put("title", "Query result viewer")
        .put("description", "Table, chart, SQL and CSV copy of a sql_execution, sl_query or sql_compare result")
        .put("mimeType", McpApps.MIME_TYPE);
  }

  /**
   * Its resources/read contents. No {@code csp} is declared, so the host applies the extension's
   * restrictive default (no connections, no outside scripts, styles or images); clipboard writing
   * is asked for (Copy as CSV), and the page falls back to a selection copy where it is not granted.
   */
  public JsonArray contents() {
    return new JsonArray().add(new JsonObject().put("uri", URI).put("mimeType", McpApps.MIME_TYPE).put("text", html)
        .put("_meta", new JsonObject().put("ui", new JsonObject().put("prefersBorder", true)
            .put("permissions", new JsonObject().put("clipboardWrite", new JsonObject())))));
  }

  /** Resources for a client that renders apps: this page, then {@code base} (may be null). */
  public McpFeatures.Resources over(McpFeatures.Resources base) {
    return new McpFeatures.Resources() {
      @Override
      public JsonArray list() {
        JsonArray all = new JsonArray().add(listed());
        return base == null ? all : all.addAll(base.list());
      }

      @Override
      public JsonArray templates() {
        return base == null ? new JsonArray() : base.templates();
      }

      @Override
      public Future<JsonArray> read(String uri) {
        if (URI.equals(uri)) {
          return Future.succeededFuture(contents());
        }
        return base == null ? Future.succeededFuture(null) : base.read(uri);
      }

      @Override
      public boolean subscribable() {
        return base != null && base.subscribable();
      }
    };
  }
}
