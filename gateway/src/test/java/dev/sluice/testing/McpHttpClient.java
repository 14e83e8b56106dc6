package dev.sluice.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deliberately plain MCP client over java.net.http for protocol tests: it sends exactly the
 * headers a test asks for, so each transport rule can be exercised on its own.
 */
public final class McpHttpClient {

  /** One SSE event: its id and the JSON-RPC message it carried. */
  public record SseEvent(String id, JsonObject message) {}

  public record Reply(int status, Map<String, List<String>> headers, String body) {
    public JsonObject json() {
      return new JsonObject(body);
    }

    public JsonArray jsonArray() {
      return new JsonArray(body);
    }

    public String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }
  }

  public static final String ACCEPT_BOTH = "application/json, text/event-stream";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI uri;
  private final AtomicInteger ids = new AtomicInteger();
  private final OutputSchemas outputSchemas = new OutputSchemas();
  public String sessionId;
  public String protocolVersion;
  public String token;

  public McpHttpClient(String url) {
    this.uri = URI.create(url);
  }

  public URI uri() {
    return uri;
  }

  public int nextId() {
    return ids.incrementAndGet();
  }

  public static JsonObject request(int id, String method, JsonObject params) {
    JsonObject r = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    return params == null ? r : r.put("params", params);
  }

  public static JsonObject notification(String method, JsonObject params) {
    JsonObject r = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    return params == null ? r : r.put("params", params);
  }

  /** initialize + notifications/initialized; remembers the session id. */
  public JsonObject initialize(String version) throws Exception {
    return initialize(version, new JsonObject());
  }

  /** {@link #initialize(String)} for a client that declares {@code capabilities}. */
  public JsonObject initialize(String version, JsonObject capabilities) throws Exception {
    Reply r = post(request(nextId(), "initialize", new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", capabilities)
        .put("clientInfo", new JsonObject().put("name", "sluice-test").put("version", "1"))), Map.of());
    if (r.status() != 200) {
      throw new AssertionError("initialize answered " + r.status() + ": " + r.body());
    }
    sessionId = r.header("Mcp-Session-Id");
    JsonObject result = r.json().getJsonObject("result");
    protocolVersion = result.getString("protocolVersion");
    Reply n = post(notification("notifications/initialized", null), Map.of());
    if (n.status() != 202) {
      throw new AssertionError("initialized notification answered " + n.status());
    }
    return result;
  }

  public Reply post(Object body, Map<String, String> extraHeaders) throws Exception {
    HttpRequest.Builder b = base(extraHeaders).POST(HttpRequest.BodyPublishers.ofString(
        body instanceof String s ? s : body.toString(), StandardCharsets.UTF_8));
    if (!extraHeaders.containsKey("Content-Type")) {
      b.header("Content-Type", "application/json");
    }
    if (!extraHeaders.containsKey("Accept")) {
      b.header("Accept", ACCEPT_BOTH);
    }
    HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(res.statusCode(), res.headers().map(), res.body());
  }

  /** Sends a request and returns its JSON-RPC response, reading SSE if the server streams. */
  public JsonObject call(String method, JsonObject params) throws Exception {
    return call(method, params, nextId());
  }

  /** {@link #call(String, JsonObject)} with a request id of the caller's choosing. */
  public JsonObject call(String method, JsonObject params, Object id) throws Exception {
    JsonObject request = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    if (params != null) {
      request.put("params", params);
    }
    HttpResponse<InputStream> res = postStream(request, Map.of());
    if (res.statusCode() != 200) {
      throw new AssertionError(method + " answered " + res.statusCode() + ": "
          + new String(res.body().readAllBytes(), StandardCharsets.UTF_8));
    }
    if (res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      for (SseEvent e : readEvents(res.body(), Integer.MAX_VALUE)) {
        if (e.message().containsKey("id") && e.message().getValue("id").equals(id)) {
          return e.message();
        }
      }
      throw new AssertionError("SSE stream ended without the response to " + id);
    }
    return new JsonObject(new String(res.body().readAllBytes(), StandardCharsets.UTF_8));
  }

  /**
   * Calls a tool. A successful result's structuredContent is checked against the tool's published
   * outputSchema, as the official SDK clients do, so every test that calls a tool also checks that
   * the gateway answers what it declares.
   */
  public JsonObject callTool(String name, JsonObject args) throws Exception {
    JsonObject response = call("tools/call", new JsonObject().put("name", name).put("arguments", args));
    JsonObject result = response.getJsonObject("result");
    if (result != null && !Boolean.TRUE.equals(result.getBoolean("isError")) && result.containsKey("structuredContent")) {
      outputSchemas.check(this, name, result.getJsonObject("structuredContent"));
    }
    return response;
  }

  /** The {@code result} of a tools/call: {content, structuredContent, isError}. */
  public JsonObject toolResult(String name, JsonObject args) throws Exception {
    return callTool(name, args).getJsonObject("result");
  }

  /**
   * The error body of an in-band tool error, read the way an agent reads it: from the text
   * content ({@code error_type: message}, then the JSON body). Fails unless the result is an error
   * shaped as the gateway promises: isError true, no structuredContent, headline and body agreeing.
   */
  public static JsonObject errorBody(JsonObject result) {
    if (!Boolean.TRUE.equals(result.getBoolean("isError"))) {
      throw new AssertionError("not an error result: " + result.encode());
    }
    if (result.containsKey("structuredContent")) {
      throw new AssertionError("an error result carries no structuredContent (clients validate it against "
          + "the outputSchema): " + result.encode());
    }
    String text = result.getJsonArray("content").getJsonObject(0).getString("text");
    int nl = text.indexOf('\n');
    JsonObject body = new JsonObject(text.substring(nl + 1));
    String headline = body.getString("error_type") + ": " + body.getString("message");
    if (!text.substring(0, nl).equals(headline)) {
      throw new AssertionError("the headline does not match the body: " + text);
    }
    return body;
  }

  /** structuredContent of a success, the {@link #errorBody} of an error. */
  public static JsonObject body(JsonObject result) {
    return Boolean.TRUE.equals(result.getBoolean("isError")) ? errorBody(result)
        : result.getJsonObject("structuredContent");
  }

  public HttpResponse<InputStream> postStream(Object body, Map<String, String> extraHeaders) throws Exception {
    HttpRequest.Builder b = base(extraHeaders)
        .header("Content-Type", "application/json")
        .header("Accept", ACCEPT_BOTH)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  /**
   * Posts without waiting for the answer's headers: a call the gateway answers as one JSON body
   * (no progressToken) sends them only when it ends.
   */
  public java.util.concurrent.CompletableFuture<HttpResponse<InputStream>> postAsync(Object body,
      Map<String, String> extraHeaders) {
    HttpRequest.Builder b = base(extraHeaders)
        .header("Content-Type", "application/json")
        .header("Accept", ACCEPT_BOTH)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  public HttpResponse<InputStream> getStream(Map<String, String> extraHeaders) throws Exception {
    HttpRequest.Builder b = base(extraHeaders).GET();
    if (!extraHeaders.containsKey("Accept")) {
      b.header("Accept", "text/event-stream");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  public Reply send(String method, Map<String, String> extraHeaders) throws Exception {
    HttpRequest.Builder b = base(extraHeaders).method(method, HttpRequest.BodyPublishers.noBody());
    HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(res.statusCode(), res.headers().map(), res.body());
  }

  public Reply getPath(String path, Map<String, String> extraHeaders) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30));
    extraHeaders.forEach(b::header);
    HttpResponse<String> res = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(res.statusCode(), res.headers().map(), res.body());
  }

  private HttpRequest.Builder base(Map<String, String> extraHeaders) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
    if (sessionId != null && !extraHeaders.containsKey("Mcp-Session-Id")) {
      b.header("Mcp-Session-Id", sessionId);
    }
    if (protocolVersion != null && !extraHeaders.containsKey("MCP-Protocol-Version")) {
      b.header("MCP-Protocol-Version", protocolVersion);
    }
    if (token != null && !extraHeaders.containsKey("Authorization")) {
      b.header("Authorization", "Bearer " + token);
    }
    Map<String, String> rest = new LinkedHashMap<>(extraHeaders);
    rest.values().removeIf(v -> v == null);
    rest.forEach(b::header);
    return b;
  }

  /** Reads up to {@code max} events (or to end of stream). */
  public static List<SseEvent> readEvents(InputStream in, int max) throws IOException {
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    List<SseEvent> out = new ArrayList<>();
    String id = null;
    StringBuilder data = new StringBuilder();
    String line;
    while (out.size() < max && (line = r.readLine()) != null) {
      if (line.isEmpty()) {
        if (data.length() > 0) {
          out.add(new SseEvent(id, new JsonObject(data.toString())));
        }
        id = null;
        data.setLength(0);
      } else if (line.startsWith("id:")) {
        id = line.substring(3).trim();
      } else if (line.startsWith("data:")) {
        data.append(line.substring(5).trim());
      }
    }
    return out;
  }
}
