package dev.sluice.stdio;

import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.McpBus;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
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
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * MCP over stdio: one JSON-RPC message (or batch) per line on stdin, answers and notifications
 * one per line on stdout; logs never touch stdout. The same session shards serve it as serve HTTP:
 * the first initialize creates the session and every later line is posted to it in streaming mode,
 * so progress and log notifications reach the client just as they would over SSE.
 */
public final class StdioTransport {

  private final Gateway gateway;
  private final InputStream in;
  private final PrintStream out;
  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>();
  private final String target = "sluice.stdio." + UUID.randomUUID();
  private volatile String sessionId;

  public StdioTransport(Gateway gateway, InputStream in, OutputStream out) {
    this.gateway = gateway;
    this.in = in;
    this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
  }

  /** Serves until stdin closes; the Future completes then. */
  public Future<Void> run() {
    Vertx vertx = gateway.vertx();
    Promise<Void> done = Promise.promise();
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
            vertx.runOnContext(v -> handleLine(l));
          }
        }
      } catch (IOException e) {
        // stdin broke: same as the client going away
      }
      vertx.runOnContext(v -> events.unregister().onComplete(x -> done.complete()));
    }, "sluice-stdio-reader");
    reader.setDaemon(true);
    reader.start();
    return done.future();
  }

  private void handleLine(String line) {
    Object parsed;
    try {
      parsed = Json.decodeValue(line);
    } catch (DecodeException e) {
      outbox.add(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: line is not valid JSON").encode());
      return;
    }
    boolean batch = parsed instanceof JsonArray;
    JsonArray messages = batch ? (JsonArray) parsed : new JsonArray().add(parsed);
    for (Object m : messages) {
      if (JsonRpc.kind(m) == JsonRpc.Kind.INVALID) {
        outbox.add(JsonRpc.error(JsonRpc.idOf(m), JsonRpc.INVALID_REQUEST, "Invalid Request").encode());
        return;
      }
    }
    String address = sessionId == null ? McpBus.shard(gateway.nodeId(), 0)
        : McpBus.route(sessionId).address();
    JsonObject op = new JsonObject().put("op", "post").put("sessionId", sessionId)
        .put("messages", messages).put("batch", batch).put("sse", sessionId != null)
        .put("target", target).put("streamId", "stdio");
    gateway.vertx().eventBus().<JsonObject>request(address, op,
            new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(15 * 60 * 1000L))
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
        .onFailure(err -> outbox.add(JsonRpc.error(null, JsonRpc.INTERNAL_ERROR,
            "Internal error: " + err.getMessage()).encode()));
  }

  private void drainOutbox() {
    try {
      while (true) {
        String line = outbox.take();
        out.print(line);
        out.print('\n');
        out.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
