package dev.sluice.tools;

import dev.sluice.catalog.CatalogBus;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.SnapshotStore;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The catalog tools' view of the snapshots: the latest stored snapshot of a connection, re-read
 * whenever its file changes (a rescan by the gateway or by {@code sluice scan} in another process
 * is visible on the next call), and indexes derived from it, cached per {@code syncId}.
 */
public final class CatalogAccess {

  /** How long a tool suggests waiting while the first scan runs. */
  static final long RETRY_AFTER_MS = 2_000;

  private final Vertx vertx;
  private final SnapshotStore store;
  private final Map<String, SnapshotStore.Stored> snapshots = new ConcurrentHashMap<>();
  private final Map<String, Object> derived = new ConcurrentHashMap<>();

  public CatalogAccess(Vertx vertx, SnapshotStore store) {
    this.vertx = vertx;
    this.store = store;
  }

  /** The latest snapshot, or empty when none was ever stored. Never blocks the caller's loop. */
  public Vertx vertx() {
    return vertx;
  }

  public Future<Optional<CatalogSnapshot>> current(String connectionId) {
    return vertx.executeBlocking(() -> {
      Optional<String> id = store.version(connectionId);
      if (id.isEmpty()) {
        snapshots.remove(connectionId);
        return Optional.<CatalogSnapshot>empty();
      }
      SnapshotStore.Stored cached = snapshots.get(connectionId);
      if (cached != null && cached.version().equals(id.get())) {
        return Optional.of(cached.snapshot());
      }
      Optional<SnapshotStore.Stored> fresh = store.read(connectionId);
      fresh.ifPresent(s -> snapshots.put(connectionId, s));
      return fresh.map(SnapshotStore.Stored::snapshot);
    }, false);
  }

  /** The latest snapshot, or a not_ready error saying whether a scan is running and how far it is. */
  public Future<CatalogSnapshot> require(ConnectionConfig c) {
    return current(c.id()).compose(s -> s.isPresent() ? Future.succeededFuture(s.get())
        : status(c.id()).compose(st -> Future.failedFuture(notReady(c.id(), st))));
  }

  /**
   * An index built from a snapshot, built once per {@code syncId} and shared by all sessions.
   * Building runs on a worker thread.
   */
  @SuppressWarnings("unchecked")
  public <T> Future<T> derived(String kind, CatalogSnapshot s, Function<CatalogSnapshot, T> build) {
    String key = kind + "/" + s.connectionId() + "/" + s.syncId();
    Object hit = derived.get(key);
    if (hit != null) {
      return Future.succeededFuture((T) hit);
    }
    return vertx.executeBlocking(() -> {
      T built = build.apply(s);
      // One entry per connection and kind: a new syncId evicts the old index.
      derived.keySet().removeIf(k -> k.startsWith(kind + "/" + s.connectionId() + "/"));
      derived.put(key, built);
      return built;
    }, false);
  }

  /** The catalog verticle's scan status; an unreachable verticle reads as "not scanning". */
  public Future<JsonObject> status(String connectionId) {
    return vertx.eventBus()
        .<JsonObject>request(CatalogBus.STATUS, new JsonObject().put("connectionId", connectionId),
            new DeliveryOptions().setSendTimeout(2_000))
        .map(m -> m.body())
        .otherwise(err -> new JsonObject().put("connectionId", connectionId).put("scanning", false));
  }

  private static SqlError notReady(String connectionId, JsonObject status) {
    String how = "run `java -jar gateway/target/sluice.jar scan " + connectionId + " --config <your config>`";
    if (status.getBoolean("scanning", false)) {
      JsonObject p = status.getJsonObject("progress", new JsonObject());
      String where = p.getInteger("total", 0) > 0
          ? p.getString("phase") + " " + p.getInteger("done") + "/" + p.getInteger("total")
          : p.getString("phase", "starting");
      return new SqlError(ErrorType.NOT_READY, "the catalog of '" + connectionId
          + "' is being scanned (" + where + "); retry in a few seconds")
          .with("progress", p).with("retryAfterMs", RETRY_AFTER_MS);
    }
    if (status.getString("lastError") != null) {
      return new SqlError(ErrorType.NOT_READY, "the catalog scan of '" + connectionId + "' failed: "
          + status.getString("lastError") + "; fix the cause, then " + how)
          .with("lastError", status.getString("lastError"));
    }
    return new SqlError(ErrorType.NOT_READY, "no catalog snapshot of '" + connectionId
        + "' exists yet; " + how + " (the gateway also scans at start unless catalog.scan_on_start is false)");
  }
}
