package dev.sluice.stdio;

import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.mcp.McpBus;
import dev.sluice.mcp.stateless.Envelope;
import dev.sluice.mcp.stateless.StatelessHandler;
import dev.sluice.observability.TransportLog;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * MCP over stdio: one JSON-RPC message (or batch) per line on stdin, answers and notifications
 * one per line on stdout; logs never touch stdout. The same session shards serve it as serve HTTP:
 * the first initialize creates the session and every later line is posted to it in streaming mode,
 * so progress and log notifications reach the client just as they would over SSE.
 *
 * <p>A line carrying a 2026-07-28 request ({@code _meta} names its revision) needs no session: this
 * transport's own {@link StatelessHandler} answers it, its notifications and response go to stdout
 * as they come, and {@code notifications/cancelled} naming its id cancels it (stdio has no
 * per-request stream to close). The stdio process is the {@code default} principal in both eras.
 *
 * <p>Lines are handed to the shard strictly in arrival order, each once the shard has taken the one
 * before: a client may write initialize, notifications/initialized and tools/list at once, and the
 * last two must reach the session the first creates. The shard takes a message at once (a tool call
 * runs on after it is taken), so a long call never holds up the lines behind it.
 */
public final class StdioTransport {

  private final Gateway gateway;
  private final InputStream in;
  private final PrintStream out;
  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>();
  private final String target = "sluice.stdio." + UUID.randomUUID();
  /** The session, once initialize created it; touched on {@link #context} only. */
  private String sessionId;
  /** Completes when the shard has taken the last line handed over; touched on {@link #context} only. */
  private Future<Void> taken = Future.succeededFuture();
  private Context context;
  /** Answers 2026-07-28 requests; made and started on {@link #context}. */
  private StatelessHandler stateless;
  /** 2026-07-28 requests under way, by JSON-RPC id (as text): notifications/cancelled finds them here. */
  private final Map<String, StatelessHandler.Pending> modern = new HashMap<>();
  /** Requests the client cancelled: nothing more is written for them, not even a late answer. */
  private final java.util.Set<StatelessHandler.Pending> cancelled = new java.util.HashSet<>();

  public StdioTransport(Gateway gateway, InputStream in, OutputStream out) {
    this.gateway = gateway;
    this.in = in;
    this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
  }

  /** Serves until stdin closes; the Future completes then, once the session is closed. */
  public Future<Void> run() {
    Vertx vertx = gateway.vertx();
    context = vertx.getOrCreateContext();
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> {
      stateless = gateway.statelessHandler();
      taken = stateless.start();
    });
    MessageConsumer<JsonObject> events = vertx.eventBus().localConsumer(target, m -> {
      JsonObject ev = m.body();
      if (ev.containsKey("message")) {
        outbox.add(ev.getJsonObject("message").encode());
      }
    });
    // stdout writes block when the client reads slowly: they happen on this thread, never a loop
    Thread writer = new Thread(this::drainOutbox, "sluice-stdio-writer");
    writer.setDaemon(true);
    writer.start();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (!line.isBlank()) {
            String l = line;
            context.runOnContext(v -> taken = taken.transform(x -> handleLine(l)));
          }
        }
      } catch (IOException e) {
        // stdin broke: same as the client going away
        TransportLog.error("stdio", null, "stdin", e.toString());
      }
      context.runOnContext(v -> taken = taken.transform(x -> endSession()).transform(x -> stateless.stop())
          .transform(x -> events.unregister()).onComplete(x -> done.complete()));
    }, "sluice-stdio-reader");
    reader.setDaemon(true);
    reader.start();
    return done.future();
  }

  /** Hands one line to the session's shard; completes once the shard has taken it. */
  private Future<Void> handleLine(String line) {
    Object parsed;
    try {
      parsed = Json.decodeValue(line);
    } catch (DecodeException e) {
      TransportLog.error("stdio", sessionId, "parse", "line is not valid JSON");
      outbox.add(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: line is not valid JSON").encode());
      return Future.succeededFuture();
    }
    if (parsed instanceof JsonObject m && JsonRpc.kind(m) != JsonRpc.Kind.INVALID && modern(m)) {
      return Future.succeededFuture();
    }
    boolean batch = parsed instanceof JsonArray;
    JsonArray messages = batch ? (JsonArray) parsed : new JsonArray().add(parsed);
    for (Object m : messages) {
      if (JsonRpc.kind(m) == JsonRpc.Kind.INVALID) {
        TransportLog.error("stdio", sessionId, "invalid_request", "not a JSON-RPC 2.0 message");
        outbox.add(JsonRpc.error(JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST, "Invalid Request").encode());
        return Future.succeededFuture();
      }
    }
    String address = sessionId == null ? McpBus.shard(gateway.nodeId(), 0)
        : McpBus.route(sessionId).address();
    JsonObject op = new JsonObject().put("op", "post").put("sessionId", sessionId)
        .put("messages", messages).put("batch", batch).put("sse", sessionId != null)
        .put("target", target).put("streamId", "stdio");
    return gateway.vertx().eventBus().<JsonObject>request(address, op,
            new DeliveryOptions().setSendTimeout(15 * 60 * 1000L))
        .onSuccess(reply -> {
          JsonObject r = reply.body();
          if (r.containsKey("sessionId")) {
            sessionId = r.getString("sessionId");
          }
          Object body = r.getValue("body");
          if (body != null) {
            outbox.add(Json.encode(body));
          }
        })
        .onFailure(err -> {
          TransportLog.error("stdio", sessionId, "bus", err.toString());
          outbox.add(JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "Internal error: " + err.getMessage()).encode());
        })
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  /**
   * Serves a 2026-07-28 message if it is one: a request carrying the per-request envelope, or a
   * notifications/cancelled naming one under way. The request is taken at once and runs on.
   */
  private boolean modern(JsonObject m) {
    if (JsonRpc.kind(m) == JsonRpc.Kind.NOTIFICATION && "notifications/cancelled".equals(m.getString("method"))) {
      JsonObject params = m.getValue("params") instanceof JsonObject p ? p : new JsonObject();
      StatelessHandler.Pending p = modern.remove(String.valueOf(params.getValue("requestId")));
      if (p != null) {
        cancelled.add(p);
        p.cancel().run();
        return true;
      }
      return Envelope.claimed(m);
    }
    if (!Envelope.claimed(m)) {
      return false;
    }
    if (JsonRpc.kind(m) != JsonRpc.Kind.REQUEST) {
      return true;  // no other client notification exists in this revision, and no response is ours to take
    }
    Envelope.Parsed parsed = Envelope.parse(m);
    if (!parsed.ok()) {
      outbox.add(parsed.error().encode());
      return true;
    }
    String key = String.valueOf(m.getValue("id"));
    StatelessHandler.Pending pending = stateless.request(m, parsed.envelope(), PrincipalConfig.DEFAULT,
        n -> outbox.add(n.encode()));
    modern.put(key, pending);
    pending.response().onComplete(ar -> {
      if (modern.get(key) == pending) {
        modern.remove(key);
      }
      JsonObject response = ar.succeeded() ? ar.result()
          : JsonRpc.error(m.getValue("id"), JsonRpc.INTERNAL_ERROR, "Internal error");
      // a cancelled request answers nothing (stdio spec: no further messages for it)
      if (!cancelled.remove(pending) && response != null) {
        outbox.add(response.encode());
      }
    });
    return true;
  }

  /** stdin closed: the client is gone, so its session ends now (as a DELETE would end it over HTTP). */
  private Future<Void> endSession() {
    if (sessionId == null) {
      return Future.succeededFuture();
    }
    JsonObject op = new JsonObject().put("op", "delete").put("sessionId", sessionId);
    return gateway.vertx().eventBus().<JsonObject>request(McpBus.route(sessionId).address(), op)
        .<Void>mapEmpty().otherwiseEmpty();
  }

  private void drainOutbox() {
    try {
      while (true) {
        String line = outbox.take();
        out.print(line);
        out.print('\n');
        out.flush();
        if (out.checkError()) {
          TransportLog.error("stdio", null, "stdout", "writing to stdout failed; the client stopped reading");
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
