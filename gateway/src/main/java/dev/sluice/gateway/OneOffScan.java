package dev.sluice.gateway;

import dev.sluice.catalog.CatalogBus;
import dev.sluice.catalog.CatalogVerticle;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice scan <connectionId>}: scans one connection on a Vert.x instance of its own (its own
 * executor, so the same guard and deadline) and stores the snapshot where a running gateway reads
 * it; the gateway picks it up on its next catalog call.
 */
public final class OneOffScan {

  private OneOffScan() {}

  /**
   * Runs the scan and returns the catalog verticle's summary. Blocking, for a command line or a
   * test thread: the Vert.x instance is closed from the calling thread, since a future completed
   * by its own close would be delivered to an event loop that no longer runs.
   */
  public static JsonObject run(SluiceConfig config, String connectionId) throws Exception {
    ConnectionConfig c = config.connection(connectionId).orElseThrow(() -> new SqlError(ErrorType.INVALID_ARGUMENT,
        "unknown connectionId '" + connectionId + "'; configured connections: "
            + config.connections().stream().map(ConnectionConfig::id).toList()));
    SluiceConfig one = config.withConnections(List.of(c)).withCatalog(config.catalog().withScanOnStart(false));
    Vertx vertx = Vertx.vertx();
    try {
      Future<Void> demo = config.demo()
          ? vertx.executeBlocking(() -> DemoDataset.ensureSqlite(config.stateDir())).mapEmpty()
          : Future.succeededFuture();
      return demo
          .compose(v -> Executors.deploy(vertx, one))
          .compose(v -> dev.sluice.state.StateStores.open(vertx, config.state()))
          .compose(store -> vertx.deployVerticle(new CatalogVerticle(one.connections(), one.catalog(),
              new dev.sluice.catalog.SnapshotStore(store))))
          .compose(v -> vertx.eventBus().<JsonObject>request(CatalogBus.SCAN,
              new JsonObject().put("connectionId", connectionId),
              new DeliveryOptions().setSendTimeout(24L * 3600 * 1000)))
          .map(m -> m.body())
          .toCompletionStage().toCompletableFuture().get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
