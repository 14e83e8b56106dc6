package dev.sluice.catalog;

import dev.sluice.config.CatalogConfig;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.ExecutorSupport;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every connection's catalog snapshot current: scans in the background at start (the gateway
 * answers meanwhile), on request over {@link CatalogBus#SCAN}, and every
 * {@link CatalogConfig#scanIntervalMs()} if set. At most one scan per connection runs at a time; a
 * second request joins it.
 */
public final class CatalogVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(CatalogVerticle.class);

  private final Map<String, ConnectionConfig> connections = new LinkedHashMap<>();
  private final CatalogConfig settings;
  private final SnapshotStore store;
  private final Map<String, Running> running = new HashMap<>();
  private final Map<String, JsonObject> last = new HashMap<>();
  private long timer = -1;
  static final String LOCK_PREFIX = "sluice.catalog.scan.";
  /** Announcements stay on this node: other nodes notice a new snapshot on their next call. */
  private static final io.vertx.core.eventbus.DeliveryOptions LOCAL =
      new io.vertx.core.eventbus.DeliveryOptions().setLocalOnly(true);

  public CatalogVerticle(List<ConnectionConfig> connections, CatalogConfig settings, Path stateDir) {
    this(connections, settings, new SnapshotStore(stateDir));
  }

  public CatalogVerticle(List<ConnectionConfig> connections, CatalogConfig settings, SnapshotStore store) {
    connections.forEach(c -> this.connections.put(c.id(), c));
    this.settings = settings;
    this.store = store;
  }

  private record Running(CatalogScanner scanner, Future<JsonObject> result) {}

  @Override
  public Future<?> start() {
    Future<Void> scan = ExecutorSupport.consume(vertx, CatalogBus.SCAN, req -> scan(req.getString("connectionId")));
    Future<Void> status = ExecutorSupport.consume(vertx, CatalogBus.STATUS,
        req -> Future.succeededFuture(status(req.getString("connectionId"))));
    // Future.all completes on whichever thread completed its last part: the scans and their
    // bookkeeping (running, last) belong on this verticle's context, where their answers arrive
    return Future.all(scan, status).onSuccess(v -> context.runOnContext(x -> {
      if (settings.scanOnStart()) {
        scanAll();
      }
      if (settings.scanIntervalMs() > 0) {
        timer = vertx.setPeriodic(settings.scanIntervalMs(), id -> scanAll());
      }
    }));
  }

  @Override
  public Future<?> stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return Future.succeededFuture();
  }

  private void scanAll() {
    connections.keySet().forEach(id -> scan(id).onFailure(err -> { }));
  }

  private Future<JsonObject> scan(String connectionId) {
    ConnectionConfig c = connections.get(connectionId);
    if (c == null) {
      return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "unknown connectionId '"
          + connectionId + "'; configured connections: " + connections.keySet()));
    }
    Running now = running.get(connectionId);
    if (now != null) {
      return now.result();
    }
    CatalogScanner scanner = new CatalogScanner(vertx, c, settings);
    // registered before the scan starts, so that a scan over before this method returns does not
    // leave an entry behind that reads as "scanning" for good
    Promise<JsonObject> outcome = Promise.promise();
    Running run = new Running(scanner, outcome.future());
    running.put(connectionId, run);
    // Nodes sharing a store scan a connection one at a time (a cluster-wide lock): they would only
    // write the same snapshot twice. Nodes with their own directories each need their own scan.
    (store.shared()
        ? vertx.sharedData().getLockWithTimeout(LOCK_PREFIX + connectionId, 1)
        : vertx.sharedData().getLocalLockWithTimeout(LOCK_PREFIX + connectionId, 1))
        .recover(busy -> Future.failedFuture(new SqlError(ErrorType.BUSY, "a catalog scan of '" + connectionId
            + "' is running on another node; retry after retryAfterMs").with("retryAfterMs", 5_000)))
        .compose(lock -> scanner.scan()
            .compose(snapshot -> vertx.executeBlocking(() -> {
              store.write(snapshot);
              return summary(snapshot);
            }))
            .onComplete(ar -> lock.release()))
        .onComplete(ar -> {
          running.remove(connectionId, run);
          JsonObject record = new JsonObject().put("lastFinishedAt", Instant.now().toString());
          if (ar.succeeded()) {
            record.put("lastSyncId", ar.result().getString("syncId"));
            vertx.eventBus().publish(CatalogBus.SCANNED, ar.result(), LOCAL);
            LOG.info("catalog scan of {}: {} tables, {} problems, {} ms", connectionId,
                ar.result().getInteger("tables"), ar.result().getInteger("problems"), ar.result().getLong("scanMs"));
          } else {
            SqlError err = SqlError.from(ar.cause());
            record.put("lastError", err.getMessage());
            if (err.type() == ErrorType.BUSY) {
              LOG.info("catalog scan of {} skipped: {}", connectionId, err.getMessage());
            } else {
              LOG.warn("catalog scan of {} failed: {}", connectionId, ar.cause().getMessage());
            }
          }
          last.put(connectionId, record);
        })
        .onComplete(outcome);
    return outcome.future();
  }

  static JsonObject summary(CatalogSnapshot s) {
    return new JsonObject().put("connectionId", s.connectionId()).put("syncId", s.syncId())
        .put("extractedAt", s.extractedAt()).put("tables", s.tables().size())
        .put("problems", s.problems().size()).put("scanMs", s.scanMs());
  }

  private JsonObject status(String connectionId) {
    JsonObject out = new JsonObject().put("connectionId", connectionId);
    Running now = running.get(connectionId);
    out.put("scanning", now != null);
    if (now != null) {
      out.put("progress", now.scanner().progress().toJson());
    }
    JsonObject previous = last.get(connectionId);
    if (previous != null) {
      out.mergeIn(previous);
    }
    return out;
  }
}
