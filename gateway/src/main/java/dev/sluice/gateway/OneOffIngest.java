package dev.sluice.gateway;

import dev.sluice.config.SluiceConfig;
import dev.sluice.ingest.IngestBus;
import dev.sluice.ingest.IngestVerticle;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice ingest --file F}: the memory_ingest path from the command line, on a Vert.x
 * instance of its own, writing into the same state directory a running gateway reads.
 */
public final class OneOffIngest {

  private OneOffIngest() {}

  /** Submits the content, waits for the run to end, and returns its final status. Blocking. */
  public static JsonObject run(SluiceConfig config, String content, String connectionId) throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      dev.sluice.state.StateStores.open(vertx, config.state())
          .compose(store -> vertx.deployVerticle(new IngestVerticle(config.connections(), config.ingest(),
              store, "cli-" + java.util.UUID.randomUUID(), config.state().leaseMs(), false)))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      JsonObject started = vertx.eventBus().<JsonObject>request(IngestBus.SUBMIT, new JsonObject()
              .put("content", content).put("connectionId", connectionId).put("source", "cli"))
          .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).body();
      while (true) {
        JsonObject s = vertx.eventBus().<JsonObject>request(IngestBus.STATUS,
                new JsonObject().put("runId", started.getString("runId")))
            .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).body();
        if ("completed".equals(s.getString("status")) || "failed".equals(s.getString("status"))) {
          return s;
        }
        Thread.sleep(20);
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
