package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Executor progress for a receiver on this node is handed to it on its own context, in the order
 * sent, as the bus delivered it; with no receiver registered (another node's, or one that stopped)
 * it still goes over the bus.
 */
class LocalProgressTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aReceiverOnThisNodeGetsEachStageOnItsContextInOrder() throws Exception {
    Context receiver = vertx.getOrCreateContext();
    List<String> got = new CopyOnWriteArrayList<>();
    CompletableFuture<Context> seenOn = new CompletableFuture<>();
    LocalProgress.register(vertx, "p.local", receiver, p -> {
      got.add(p.getString("stage") + ":" + p.getString("queryId"));
      if (got.size() == 3) {
        seenOn.complete(Vertx.currentContext());
      }
    });
    Context sender = vertx.getOrCreateContext();
    sender.runOnContext(v -> {
      ExecutorSupport.progress(vertx, "p.local", "q1", "validating", null);
      ExecutorSupport.progress(vertx, "p.local", "q1", "executing", null);
      ExecutorSupport.progress(vertx, "p.local", "q1", "fetching", 7);
    });
    assertSame(receiver, seenOn.get(10, TimeUnit.SECONDS));
    assertEquals(List.of("validating:q1", "executing:q1", "fetching:q1"), got);
  }

  @Test
  void withoutAReceiverHereProgressGoesOverTheBus() throws Exception {
    ByReferenceJson.register(vertx);
    CompletableFuture<JsonObject> overTheBus = new CompletableFuture<>();
    vertx.eventBus().<JsonObject>consumer("p.remote", m -> overTheBus.complete(m.body()))
        .completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    LocalProgress.register(vertx, "p.remote", vertx.getOrCreateContext(), p -> { });
    LocalProgress.unregister(vertx, "p.remote");
    assertFalse(LocalProgress.deliver(vertx, "p.remote", new JsonObject()));
    vertx.runOnContext(v -> ExecutorSupport.progress(vertx, "p.remote", "q2", "fetching", 3));
    JsonObject p = overTheBus.get(10, TimeUnit.SECONDS);
    assertEquals("q2", p.getString("queryId"));
    assertEquals(3, p.getInteger("rows"));
    assertEquals("3 rows fetched", p.getString("message"));
  }
}
