package dev.sluice.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.sluice.bus.ByReferenceJson;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream's events reach an HTTP verticle on this node as tasks on its context, in order, and
 * one on another node (here: one not registered) over the bus, with the same content.
 */
class EventStreamTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void anHttpVerticleHereGetsTheEventsOnItsContextInOrder() throws Exception {
    Context http = vertx.getOrCreateContext();
    List<String> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Context> endedOn = new CompletableFuture<>();
    EventStream.HTTP.register(vertx, "h.local", http, ev -> {
      got.add(ev.getString("streamId") + " " + (ev.getBoolean("end", false) ? "end"
          : ev.containsKey("retryMs") ? "prime " + ev.getString("eventId")
          : ev.getString("eventId") + " " + ev.getJsonObject("message").getInteger("n")));
      if (ev.getBoolean("end", false)) {
        endedOn.complete(Vertx.currentContext());
      }
    });
    EventStream stream = new EventStream("k", 8);
    vertx.getOrCreateContext().runOnContext(v -> {
      stream.attach("h.local", "s1");
      stream.prime(vertx, 1_000);
      stream.emit(vertx, new JsonObject().put("n", 1));
      stream.emit(vertx, new JsonObject().put("n", 2));
      stream.end(vertx);
    });
    assertSame(http, endedOn.get(10, TimeUnit.SECONDS));
    assertEquals(List.of("s1 prime k_1", "s1 k_2 1", "s1 k_3 2", "s1 end"), got);
    EventStream.HTTP.unregister(vertx, "h.local");
  }

  @Test
  void anHttpVerticleElsewhereGetsThemOverTheBus() throws Exception {
    ByReferenceJson.register(vertx);
    CompletableFuture<JsonObject> overTheBus = new CompletableFuture<>();
    vertx.eventBus().<JsonObject>consumer("h.remote", m -> overTheBus.complete(m.body()))
        .completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    EventStream stream = new EventStream("k", 8);
    vertx.runOnContext(v -> {
      stream.attach("h.remote", "s2");
      stream.emit(vertx, new JsonObject().put("n", 7));
    });
    JsonObject ev = overTheBus.get(10, TimeUnit.SECONDS);
    assertEquals("s2", ev.getString("streamId"));
    assertEquals("k_1", ev.getString("eventId"));
    assertEquals(7, ev.getJsonObject("message").getInteger("n"));
  }
}
