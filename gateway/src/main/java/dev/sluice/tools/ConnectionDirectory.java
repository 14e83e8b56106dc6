package dev.sluice.tools;

import dev.sluice.access.Principals;
import dev.sluice.access.RateLimits;
import dev.sluice.access.TablePolicy;
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
  private final Principals principals;
  private final RateLimits limits;
  private final TablePolicy policy;
  private final SqlGate gate = new SqlGate(this);

  public ConnectionDirectory(Vertx vertx, List<ConnectionConfig> connections, Principals principals,
      RateLimits limits, TablePolicy policy) {
    this.vertx = vertx;
    this.policy = policy;
    this.principals = principals;
    this.limits = limits;
    connections.forEach(c -> byId.put(c.id(), c));
  }

  /** Every connection, whoever asks: for the gateway itself (health), never for a tool's answer. */
  public List<ConnectionConfig> all() {
    return new ArrayList<>(byId.values());
  }

  /** The connections this principal may use. */
  public List<ConnectionConfig> all(String principal) {
    return byId.values().stream().filter(c -> principals.mayUse(principal, c.id())).toList();
  }

  /**
   * The connection, or an invalid_argument error naming the ones this principal may use. A
   * connection the principal may not use is answered exactly like one that does not exist, so a
   * policy does not reveal what else is configured.
   */
  public ConnectionConfig require(String id, String principal) {
    ConnectionConfig c = byId.get(id);
    if (c == null || !principals.mayUse(principal, id)) {
      List<String> visible = all(principal).stream().map(ConnectionConfig::id).toList();
      throw new SqlError(ErrorType.INVALID_ARGUMENT,
          "unknown connectionId '" + id + "'; configured connections: " + visible,
          new JsonObject().put("availableConnections", new JsonArray(new ArrayList<>(visible)))
              .put("hint", "Call connection_list to see the connections and pick one of their ids."));
    }
    return c;
  }

  /**
   * The connections a search may cover for this principal: null when it may use all of them (no
   * filter needed), else their ids; {@code only} narrows to one (already checked).
   */
  public List<String> searchScope(String only, String principal) {
    if (only != null) {
      return List.of(require(only, principal).id());
    }
    List<ConnectionConfig> mine = all(principal);
    return mine.size() == byId.size() ? null : mine.stream().map(ConnectionConfig::id).toList();
  }

  /** Whether a wiki page with this scope may be shown to the principal. */
  public boolean pageVisible(List<String> pageConnections, String principal) {
    return pageConnections.isEmpty() || pageConnections.stream().anyMatch(c -> principals.mayUse(principal, c));
  }

  /** The path every tool's statement takes to its executor. */
  public SqlGate gate() {
    return gate;
  }

  public TablePolicy policy() {
    return policy;
  }

  public RateLimits limits() {
    return limits;
  }

  public Principals principals() {
    return principals;
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
    return statuses(all());
  }

  public Future<List<JsonObject>> statuses(List<ConnectionConfig> which) {
    List<Future<JsonObject>> all = new ArrayList<>();
    which.forEach(c -> all.add(status(c)));
    return Future.all(all).map(cf -> {
      List<JsonObject> out = new ArrayList<>();
      all.forEach(f -> out.add(f.result()));
      return out;
    });
  }
}
