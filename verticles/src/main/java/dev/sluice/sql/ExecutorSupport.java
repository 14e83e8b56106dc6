package dev.sluice.sql;

import dev.sluice.config.ConnectionConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/** The request handling every executor shares, so all engines answer agents the same way. */
public final class ExecutorSupport {

  private ExecutorSupport() {}

  /** Registers a bus handler whose Future result is the reply and whose failure is a {@link SqlError}. */
  public static Future<Void> consume(Vertx vertx, String address, Function<JsonObject, Future<JsonObject>> handler) {
    // node-local: on a clustered bus every node runs its own executors, catalog and ingest runner,
    // and a query's cancel must reach the node that runs it
    MessageConsumer<JsonObject> consumer = vertx.eventBus().localConsumer(address, (Message<JsonObject> msg) ->
        attempt(() -> handler.apply(msg.body() == null ? new JsonObject() : msg.body()))
            .onSuccess(msg::reply)
            .onFailure(err -> SqlError.from(err).failReply(msg)));
    return consumer.completion();
  }

  /** The connection a request names, or invalid_argument listing the known ones. */
  public static ConnectionConfig config(Map<String, ConnectionConfig> configs, Driver driver, String connectionId) {
    ConnectionConfig cfg = connectionId == null ? null : configs.get(connectionId);
    if (cfg == null) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "unknown connectionId '" + connectionId + "' for "
          + driver.wireName() + "; known: " + String.join(", ", configs.keySet()))
          .with("known", new JsonArray(new ArrayList<>(configs.keySet())));
    }
    return cfg;
  }

  /**
   * The caller's query id, or a fresh one. A present-but-null key counts as absent (JsonObject's
   * getString default only covers a missing key), so every in-flight query has an id to cancel by.
   */
  public static String queryId(JsonObject req) {
    String id = req.getString("queryId");
    return id == null || id.isBlank() ? UUID.randomUUID().toString() : id;
  }

  /** maxRows clamped to [1, the connection's ceiling]. */
  public static int maxRows(JsonObject req, ConnectionConfig cfg) {
    int asked = req.getInteger("maxRows", cfg.maxRowsDefault());
    return Math.max(1, Math.min(Math.max(1, cfg.maxRowsCeiling()), asked));
  }

  /** The smaller of the request's timeoutMs and the connection's deadline. */
  public static long timeoutMs(JsonObject req, ConnectionConfig cfg) {
    Long asked = req.getLong("timeoutMs");
    return asked != null && asked > 0 ? Math.min(asked, cfg.queryTimeoutMs()) : cfg.queryTimeoutMs();
  }

  /** Sends a progress stage to the request's progressAddress, if it has one. */
  public static void progress(Vertx vertx, JsonObject req, String queryId, String stage, Integer rows) {
    String address = req.getString("progressAddress");
    if (address == null) {
      return;
    }
    JsonObject p = new JsonObject().put("queryId", queryId).put("stage", stage);
    if (rows != null) {
      p.put("rows", rows);
    }
    p.put("message", switch (stage) {
      case "validating" -> "checking the statement";
      case "executing" -> "running on the database";
      default -> rows + " rows fetched";
    });
    vertx.eventBus().send(address, p);
  }

  public static <T> Future<T> attempt(Supplier<Future<T>> s) {
    try {
      return s.get();
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
