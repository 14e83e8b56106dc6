package dev.sluice.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The result viewer over real HTTP, on both eras: offered (tools' {@code _meta.ui}, the resource,
 * the extension in the capabilities) to a client that declares MCP Apps support, and to no other
 * client, whose tools/list must stay byte for byte what it was.
 */
class ResultViewerOverMcpTest {

  static final List<String> WITH_VIEWER = List.of("sql_execution", "sql_compare", "sl_query");
  static final JsonObject APPS = new JsonObject().put("extensions", new JsonObject()
      .put(McpApps.EXTENSION_ID, new JsonObject().put("mimeTypes", new JsonArray().add(McpApps.MIME_TYPE))));
  /** Declares the extension, but only for a content type we do not serve: not an apps client for us. */
  static final JsonObject OTHER_PROFILE = new JsonObject().put("extensions", new JsonObject()
      .put(McpApps.EXTENSION_ID, new JsonObject().put("mimeTypes", new JsonArray().add("text/html+skybridge"))));

  private static TestGateway gw;

  @BeforeAll
  static void start() throws Exception {
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("result-viewer")), null);
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
  }

  @Test
  void aSessionThatDeclaresMcpAppsSeesTheViewerOnTheThreeToolsAndReadsIt() throws Exception {
    McpHttpClient apps = gw.client();
    JsonObject init = apps.initialize(ProtocolRevision.LATEST, APPS);
    JsonObject caps = init.getJsonObject("capabilities");
    assertEquals(new JsonArray().add(McpApps.MIME_TYPE),
        caps.getJsonObject("extensions").getJsonObject(McpApps.EXTENSION_ID).getJsonArray("mimeTypes"));
    assertTrue(caps.containsKey("resources"), caps.encode());

    JsonArray tools = apps.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    Map<String, String> viewers = new LinkedHashMap<>();
    tools.forEach(t -> {
      JsonObject tool = (JsonObject) t;
      if (tool.containsKey("_meta")) {
        viewers.put(tool.getString("name"), tool.getJsonObject("_meta").getJsonObject("ui").getString("resourceUri"));
      }
    });
    assertEquals(Map.of("sql_execution", ResultViewer.URI, "sql_compare", ResultViewer.URI, "sl_query",
        ResultViewer.URI), viewers);

    JsonArray listed = apps.call("resources/list", new JsonObject()).getJsonObject("result").getJsonArray("resources");
    assertEquals(1, listed.size());
    assertEquals(ResultViewer.URI, listed.getJsonObject(0).getString("uri"));
    assertEquals(McpApps.MIME_TYPE, listed.getJsonObject(0).getString("mimeType"));

    JsonObject content = apps.call("resources/read", new JsonObject().put("uri", ResultViewer.URI))
        .getJsonObject("result").getJsonArray("contents").getJsonObject(0);
    assertEquals(ResultViewer.URI, content.getString("uri"));
    assertEquals(McpApps.MIME_TYPE, content.getString("mimeType"));
    assertTrue(content.getString("text").startsWith("<!DOCTYPE html>"));
    assertNull(content.getJsonObject("_meta").getJsonObject("ui").getValue("csp"),
        "no csp declared: the host keeps the extension's no-network default");

    JsonObject unknown = apps.call("resources/read", new JsonObject().put("uri", "ui://sluice/nothing"));
    assertEquals(-32002, unknown.getJsonObject("error").getInteger("code"));
  }

  @Test
  void everyOtherSessionSeesExactlyWhatItSawBefore() throws Exception {
    McpHttpClient plain = gw.client();
    JsonObject plainInit = plain.initialize(ProtocolRevision.LATEST);
    McpHttpClient other = gw.client();
    JsonObject otherInit = other.initialize(ProtocolRevision.LATEST, OTHER_PROFILE);
    McpHttpClient apps = gw.client();
    apps.initialize(ProtocolRevision.LATEST, APPS);

    // the capabilities a client without the extension was always given
    JsonObject before = new JsonObject().put("tools", new JsonObject().put("listChanged", true))
        .put("logging", new JsonObject());
    assertEquals(before, plainInit.getJsonObject("capabilities"));
    assertEquals(before, otherInit.getJsonObject("capabilities"));

    String plainList = plain.call("tools/list", new JsonObject()).getJsonObject("result").encode();
    assertFalse(plainList.contains("_meta"), plainList);
    assertFalse(plainList.contains("ui://"), plainList);
    assertEquals(plainList, other.call("tools/list", new JsonObject()).getJsonObject("result").encode());
    // the apps list is the plain one plus _meta on three tools, nothing else
    JsonObject appsList = apps.call("tools/list", new JsonObject()).getJsonObject("result");
    appsList.getJsonArray("tools").forEach(t -> ((JsonObject) t).remove("_meta"));
    assertEquals(plainList, appsList.encode());
    System.out.printf("tools/list: %,d characters without MCP Apps, +%d with it%n", plainList.length(),
        apps.call("tools/list", new JsonObject()).getJsonObject("result").encode().length() - plainList.length());

    for (McpHttpClient c : List.of(plain, other)) {
      for (String method : List.of("resources/list", "resources/read", "resources/templates/list")) {
        JsonObject r = c.call(method, new JsonObject().put("uri", ResultViewer.URI));
        assertEquals(-32601, r.getJsonObject("error").getInteger("code"), method + ": " + r.encode());
      }
    }
  }

  /** 2025-03-26 knows no outputSchema; an apps client there still learns of the viewer. */
  @Test
  void anOlderRevisionAppsSessionGetsTheViewerWithoutOutputSchemas() throws Exception {
    McpHttpClient apps = gw.client();
    apps.initialize(ProtocolRevision.V2025_03_26, APPS);
    JsonArray tools = apps.call("tools/list", new JsonObject()).getJsonObject("result").getJsonArray("tools");
    tools.forEach(t -> assertFalse(((JsonObject) t).containsKey("outputSchema"), t.toString()));
    assertEquals(WITH_VIEWER.size(), tools.stream().filter(t -> ((JsonObject) t).containsKey("_meta")).count());
  }

  /** 2026-07-28: the capabilities arrive with each request, so each request decides. */
  @Test
  void statelessRequestsDecidePerRequest() throws Exception {
    JsonObject plain = stateless("tools/list", new JsonObject(), new JsonObject());
    JsonObject other = stateless("tools/list", new JsonObject(), OTHER_PROFILE);
    JsonObject apps = stateless("tools/list", new JsonObject(), APPS);
    assertEquals("public", plain.getString("cacheScope"));
    assertEquals("public", other.getString("cacheScope"));
    // a list that names the viewer is this client's, never a shared cache's
    assertEquals("private", apps.getString("cacheScope"));
    assertEquals(WITH_VIEWER.size(), apps.getJsonArray("tools").stream()
        .filter(t -> ResultViewer.URI.equals(((JsonObject) t).getJsonObject("_meta", new JsonObject())
            .getJsonObject("ui", new JsonObject()).getString("resourceUri"))).count());
    String plainTools = plain.getJsonArray("tools").encode();
    assertFalse(plainTools.contains("_meta"), plainTools);
    assertEquals(plainTools, other.getJsonArray("tools").encode());
    apps.getJsonArray("tools").forEach(t -> ((JsonObject) t).remove("_meta"));
    assertEquals(plainTools, apps.getJsonArray("tools").encode());

    JsonObject discoverPlain = stateless("server/discover", new JsonObject(), new JsonObject());
    JsonObject discoverApps = stateless("server/discover", new JsonObject(), APPS);
    assertFalse(discoverPlain.getJsonObject("capabilities").getJsonObject("extensions").containsKey(McpApps.EXTENSION_ID));
    assertFalse(discoverPlain.getJsonObject("capabilities").containsKey("resources"));
    assertEquals("public", discoverPlain.getString("cacheScope"));
    assertTrue(discoverApps.getJsonObject("capabilities").getJsonObject("extensions").containsKey(McpApps.EXTENSION_ID));
    assertEquals("private", discoverApps.getString("cacheScope"));

    JsonObject read = stateless("resources/read", new JsonObject().put("uri", ResultViewer.URI), APPS);
    assertEquals(McpApps.MIME_TYPE, read.getJsonArray("contents").getJsonObject(0).getString("mimeType"));
    JsonObject refused = statelessResponse("resources/list", new JsonObject(), new JsonObject());
    assertEquals(-32601, refused.getJsonObject("error").getInteger("code"));
  }

  /**
   * Self-contained and small: nothing in the page loads from anywhere (the extension's default CSP
   * would block it anyway, and the person would see a broken view).
   */
  @Test
  void theViewerIsOneSmallSelfContainedPage() {
    String html = ResultViewer.load().html();
    int bytes = html.getBytes(StandardCharsets.UTF_8).length;
    System.out.printf("result viewer: %,d bytes, %,d lines%n", bytes, html.split("\n").length);
    assertTrue(bytes < 32 * 1024, "the viewer is " + bytes + " bytes");
    for (String loads : List.of("<script src", "<link", "<img", "<iframe", "@import", "url(", "fetch(",
        "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon")) {
      assertFalse(html.contains(loads), "the viewer loads something: " + loads);
    }
    // the one absolute URL is the SVG namespace, an identifier that is never fetched
    assertEquals(List.of("http://www.w3.org/2000/svg"),
        Pattern.compile("https?://[^\"'\\s)]+").matcher(html).results().map(m -> m.group()).distinct().toList());
  }

  private static JsonObject stateless(String method, JsonObject params, JsonObject capabilities) throws Exception {
    JsonObject r = statelessResponse(method, params, capabilities);
    assertTrue(r.containsKey("result"), r.encode());
    return r.getJsonObject("result");
  }

  private static JsonObject statelessResponse(String method, JsonObject params, JsonObject capabilities)
      throws Exception {
    JsonObject meta = new JsonObject().put("io.modelcontextprotocol/protocolVersion", ProtocolRevision.V2026_07_28)
        .put("io.modelcontextprotocol/clientInfo", new JsonObject().put("name", "viewer-test").put("version", "1"))
        .put("io.modelcontextprotocol/clientCapabilities", capabilities);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("MCP-Protocol-Version", ProtocolRevision.V2026_07_28);
    headers.put("Mcp-Method", method);
    if (params.containsKey("uri")) {
      headers.put("Mcp-Name", params.getString("uri"));
    }
    HttpResponse<InputStream> res = gw.client().postStream(McpHttpClient.request(1, method, params.copy().put("_meta", meta)),
        headers);
    String body = new String(res.body().readAllBytes(), StandardCharsets.UTF_8);
    if (res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      List<McpHttpClient.SseEvent> events = McpHttpClient.readEvents(
          new java.io.ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), Integer.MAX_VALUE);
      return events.get(events.size() - 1).message();
    }
    return new JsonObject(body);
  }
}
