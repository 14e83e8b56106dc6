package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * One MCP client session over Streamable HTTP: initialize, the initialized notification, an
 * optional GET stream, tools/call with SSE progress, DELETE. Not thread-safe: each session is used
 * from the event loop of the agent that owns it.
 */
public final class McpSession {

  static final String PROTOCOL_VERSION = "2025-06-18";
  private static final String ACCEPT_BOTH = "application/json, text/event-stream";

  private final Vertx vertx;
  private final HttpClientAgent http;
  private final Routes routes;
  private String lastUrl;
  private String callUrl;
  private final String token;
  private final long callTimeoutMs;
  private int nextId;
  private String sessionId;
  private String protocolVersion;
  private HttpClientRequest stream;
  private boolean streamOpen;
  private int streamEvents;

  /** A session (not yet opened) to {@code url}; each call is bounded by {@code callTimeoutMs}. */
  public McpSession(Vertx vertx, HttpClientAgent http, String url, String token, long callTimeoutMs) {
    this(vertx, http, new Routes(List.of(url)), token, callTimeoutMs);
  }

  /** A session whose every request goes to the node {@code routes} picks, like behind a load balancer. */
  McpSession(Vertx vertx, HttpClientAgent http, Routes routes, String token, long callTimeoutMs) {
    this.vertx = vertx;
    this.http = http;
    this.routes = routes;
    this.token = token;
    this.callTimeoutMs = callTimeoutMs;
  }

  private RequestOptions options(HttpMethod method, String accept) {
    lastUrl = routes.pick();
    RequestOptions o = new RequestOptions().setMethod(method).setAbsoluteURI(lastUrl)
        .putHeader("Accept", accept);
    if (method == HttpMethod.POST) {
      o.putHeader("Content-Type", "application/json");
    }
    if (sessionId != null) {
      o.putHeader("Mcp-Session-Id", sessionId);
    }
    if (protocolVersion != null) {
      o.putHeader("MCP-Protocol-Version", protocolVersion);
    }
    if (token != null) {
      o.putHeader("Authorization", "Bearer " + token);
    }
    return o;
  }

  private Future<HttpClientResponse> post(JsonObject message) {
    return http.request(options(HttpMethod.POST, ACCEPT_BOTH))
        .compose(req -> req.send(message.toBuffer()));
  }

  private static JsonObject request(int id, String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method).put("params", params);
  }

  private static JsonObject notification(String method, JsonObject params) {
    JsonObject n = new JsonObject().put("jsonrpc", "2.0").put("method", method);
    return params == null ? n : n.put("params", params);
  }

  /** The node the latest request went to. */
  String lastUrl() {
    return lastUrl;
  }

  /** The node the latest tools/call went to. */
  String callUrl() {
    return callUrl;
  }

  /** Forgets the session (its node is gone) and initializes a new one wherever the routes say. */
  Future<Void> reopen() {
    sessionId = null;
    protocolVersion = null;
    return open();
  }

  /** initialize + notifications/initialized; fails with a short label on any deviation. */
  public Future<Void> open() {
    JsonObject init = request(++nextId, "initialize", new JsonObject()
        .put("protocolVersion", PROTOCOL_VERSION)
        .put("capabilities", new JsonObject())
        .put("clientInfo", new JsonObject().put("name", "sluice-loadtest").put("version", "1")));
    return post(init).compose(res -> res.body().compose(body -> {
      if (res.statusCode() != 200) {
        return Future.failedFuture("initialize_http_" + res.statusCode());
      }
      sessionId = res.getHeader("Mcp-Session-Id");
      JsonObject msg = firstMessage(res, body);
      JsonObject result = msg == null ? null : msg.getJsonObject("result");
      if (sessionId == null || result == null) {
        return Future.failedFuture("initialize_no_session");
      }
      protocolVersion = result.getString("protocolVersion");
      return post(notification("notifications/initialized", null));
    })).compose(res -> res.body().compose(b -> res.statusCode() == 202
        ? Future.<Void>succeededFuture() : Future.failedFuture("initialized_http_" + res.statusCode())));
  }

  private static JsonObject firstMessage(HttpClientResponse res, Buffer body) {
    String type = res.getHeader("Content-Type");
    if (type != null && type.startsWith("text/event-stream")) {
      List<JsonObject> out = new ArrayList<>();
      SseParser p = new SseParser((id, data) -> out.add(new JsonObject(data)));
      p.feed(body);
      p.feed(Buffer.buffer("\n\n"));
      return out.stream().filter(m -> m.containsKey("result") || m.containsKey("error")).findFirst().orElse(null);
    }
    return body.length() == 0 ? null : body.toJsonObject();
  }

  /** Opens the session's GET event stream; succeeds once the server answered 200. */
  public Future<Void> openStream() {
    return http.request(options(HttpMethod.GET, "text/event-stream")).compose(req -> {
      stream = req;
      return req.send();
    }).compose(res -> {
      if (res.statusCode() != 200) {
        return res.body().transform(x -> Future.failedFuture("stream_http_" + res.statusCode()));
      }
      streamOpen = true;
      SseParser parser = new SseParser((id, data) -> streamEvents++);
      res.handler(parser::feed);
      res.endHandler(v -> streamOpen = false);
      res.exceptionHandler(e -> streamOpen = false);
      return Future.succeededFuture();
    });
  }

  /** True while the GET stream is open as far as this client can tell. */
  public boolean streamOpen() {
    return streamOpen;
  }

  /** Events received on the GET stream. */
  public int streamEvents() {
    return streamEvents;
  }

  /** Closes the GET stream (if any) and DELETEs the session; never fails. */
  public Future<Void> close() {
    if (stream != null) {
      streamOpen = false;
      stream.connection().close();
      stream = null;
    }
    if (sessionId == null) {
      return Future.succeededFuture();
    }
    return http.request(options(HttpMethod.DELETE, ACCEPT_BOTH))
        .compose(req -> req.send()).compose(HttpClientResponse::body)
        .<Void>mapEmpty().otherwiseEmpty();
  }

  /** One JSON-RPC ping; fails with a short label unless the answer is a result for its id. */
  public Future<Void> ping() {
    int id = ++nextId;
    return post(request(id, "ping", new JsonObject())).compose(res -> res.body().compose(body -> {
      if (res.statusCode() != 200) {
        return Future.failedFuture("ping_http_" + res.statusCode());
      }
      JsonObject msg = firstMessage(res, body);
      return msg != null && msg.containsKey("result") && Integer.valueOf(id).equals(msg.getValue("id"))
          ? Future.<Void>succeededFuture() : Future.failedFuture("ping_no_result");
    }));
  }

  /** One tools/call of {@code s}, with a progress token; the outcome is never a failed future. */
  public Future<CallOutcome> call(Scenario s) {
    int id = ++nextId;
    JsonObject params = new JsonObject().put("name", s.tool()).put("arguments", s.arguments())
        .put("_meta", new JsonObject().put("progressToken", "lt-" + id));
    ToolCallExchange exchange = new ToolCallExchange(s, id, System.nanoTime());
    Promise<CallOutcome> done = exchange.done();
    long timeout = vertx.setTimer(callTimeoutMs, t -> exchange.timedOut());
    done.future().onComplete(x -> vertx.cancelTimer(timeout));
    if (s.cancels()) {
      vertx.setTimer(s.cancelAfterMs(), t -> {
        if (!done.future().isComplete()) {
          exchange.cancelSent();
          post(notification("notifications/cancelled", new JsonObject().put("requestId", id)
              .put("reason", "loadtest cancel scenario")))
              .compose(res -> res.body().map(b -> res.statusCode()))
              .onSuccess(code -> exchange.cancelAcknowledged(code == 202));
        }
      });
    }
    RequestOptions callOptions = options(HttpMethod.POST, ACCEPT_BOTH);
    callUrl = lastUrl;
    http.request(callOptions)
        .compose(req -> {
          exchange.request(req);
          return req.send(request(id, "tools/call", params).toBuffer());
        })
        .onSuccess(exchange::response)
        .onFailure(err -> exchange.failed("io_" + err.getClass().getSimpleName()));
    return done.future();
  }
}
