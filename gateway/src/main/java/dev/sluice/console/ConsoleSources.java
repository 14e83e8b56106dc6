package dev.sluice.console;

import dev.sluice.bus.JsonFields;
import dev.sluice.catalog.CatalogBus;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What the console reads from the node's composition root rather than from the HTTP verticle:
 * rate-limit budgets ({@link ConsoleBus#LIMITS}) and connections with their executor's pool and
 * their catalog's scan state ({@link ConsoleBus#CONNECTIONS}). Local consumers, registered once
 * per node.
 */
public final class ConsoleSources {

  static final long CATALOG_STATUS_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final ConnectionDirectory connections;

  private ConsoleSources(Vertx vertx, ConnectionDirectory connections) {
    this.vertx = vertx;
    this.connections = connections;
  }

  public static Future<Void> register(Vertx vertx, ConnectionDirectory connections) {
    ConsoleSources s = new ConsoleSources(vertx, connections);
    return Future.all(
        vertx.eventBus().<JsonObject>localConsumer(ConsoleBus.LIMITS, s::limits).completion(),
        vertx.eventBus().<JsonObject>localConsumer(ConsoleBus.CONNECTIONS, s::connections).completion(),
        vertx.eventBus().<JsonObject>localConsumer(ConsoleBus.RESCAN, s::rescan).completion())
        .mapEmpty();
  }

  private static Long ageMs(Object finishedAt) {
    try {
      return finishedAt instanceof String t ? System.currentTimeMillis() - java.time.Instant.parse(t).toEpochMilli() : null;
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  /** A scan of a large schema takes minutes; the bus request only bounds a lost reply. */
  static final long SCAN_TIMEOUT_MS = 30 * 60_000L;

  /** Starts (or joins) a catalog scan; its progress shows in the connections' catalog state. */
  private void rescan(Message<JsonObject> m) {
    String id = m.body().getString("connectionId");
    List<String> ids = connections.all().stream().map(ConnectionConfig::id).toList();
    if (id == null || !ids.contains(id)) {
      m.fail(400, "the body must be {\"connectionId\": one of " + ids + "}");
      return;
    }
    vertx.eventBus().request(CatalogBus.SCAN, new JsonObject().put("connectionId", id),
        new DeliveryOptions().setSendTimeout(SCAN_TIMEOUT_MS));
    m.reply(new JsonObject().put("connectionId", id).put("scanning", true));
  }

  private void limits(Message<JsonObject> m) {
    connections.limits().snapshot().onComplete(ar -> {
      if (ar.succeeded()) {
        m.reply(new JsonObject().put("limits", ar.result()));
      } else {
        m.fail(500, String.valueOf(ar.cause().getMessage()));
      }
    });
  }

  /** Each connection: the executor's info (status, version, pool) and the catalog's scan state. */
  private void connections(Message<JsonObject> m) {
    List<Future<JsonObject>> all = new ArrayList<>();
    for (ConnectionConfig c : connections.all()) {
      Future<JsonObject> catalog = vertx.eventBus().<JsonObject>request(CatalogBus.STATUS,
              new JsonObject().put("connectionId", c.id()), new DeliveryOptions().setSendTimeout(CATALOG_STATUS_TIMEOUT_MS))
          .map(r -> r.body()).otherwise(err -> new JsonObject().put("lastError", "no catalog status: " + err.getMessage()));
      Future<JsonObject> executor = connections.status(c);
      all.add(Future.all(executor, catalog).map(v -> {
        JsonObject cat = catalog.result();
        cat.put("snapshotAgeMs", ageMs(cat.getValue("lastFinishedAt")));
        return JsonFields.copy(executor.result()).put("id", c.id()).put("driver", c.driver().wireName()).put("catalog", cat);
      }));
    }
    Future.all(all).onComplete(ar -> {
      JsonArray out = new JsonArray();
      all.forEach(f -> out.add(f.result()));
      m.reply(new JsonObject().put("connections", out));
    });
  }
}
