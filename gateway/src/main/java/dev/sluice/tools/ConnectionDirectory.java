package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configured connections as tools see them: lookup by id with an error that lists the valid
 * ids, and live status from each connection's executor.
 */
public final class ConnectionDirectory {

  /** /health and connection_list must answer quickly even when a database hangs. */
  private static final long INFO_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final Map<String, ConnectionConfig> byId = new LinkedHashMap<>();

  public ConnectionDirectory(Vertx vertx, List<ConnectionConfig> connections) {
    this.vertx = vertx;
    connections.forEach(c -> byId.put(c.id(), c));
  }

  public List<ConnectionConfig> all() {
    return new ArrayList<>(byId.values());
  }

  /** The connection, or an invalid_argument error naming the ones that exist. */
  public ConnectionConfig require(String id) {
    ConnectionConfig c = byId.get(id);
    if (c == null) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT,
          "unknown connectionId '" + id + "'; configured connections: " + byId.keySet(),
          new JsonObject().put("availableConnections", new JsonArray(new ArrayList<>(byId.keySet())))
              .put("hint", "Call connection_list to see the connections and pick one of their ids."));
    }
    return c;
  }

  /** The executor's view of a connection; never fails (an unreachable executor is "down"). */
  public Future<JsonObject> status(ConnectionConfig c) {
    return vertx.eventBus()
        .<JsonObject>request(SqlBus.info(c.driver()), new JsonObject().put("connectionId", c.id()),
            new DeliveryOptions().setSendTimeout(INFO_TIMEOUT_MS))
        .map(m -> m.body())
        .otherwise(err -> new JsonObject().put("connectionId", c.id()).put("status", "down")
            .put("error", SqlError.from(err).getMessage()));
  }

  public Future<List<JsonObject>> statuses() {
    List<Future<JsonObject>> all = new ArrayList<>();
    byId.values().forEach(c -> all.add(status(c)));
    return Future.all(all).map(cf -> {
      List<JsonObject> out = new ArrayList<>();
      all.forEach(f -> out.add(f.result()));
      return out;
    });
  }
}
