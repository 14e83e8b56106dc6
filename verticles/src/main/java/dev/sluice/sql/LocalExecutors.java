package dev.sluice.sql;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's executor verticles, for callers on the same node. The executor's consumer of
 * {@link SqlBus#execute} is node-local anyway; handed over directly, a request costs two tasks on
 * the event loops (there and back) instead of an event-bus message with its reply address, reply
 * handler, timeout timer and delivery objects: about a tenth of what a small call allocated, and
 * Vert.x 5.0.10 creates a whole context on every reply. A caller on a node whose executor is not
 * (or no longer) deployed goes over the bus as before.
 */
public final class LocalExecutors {

  private static final Map<Vertx, Map<Driver, SqlExecutorVerticle>> NODES = new ConcurrentHashMap<>();

  private LocalExecutors() {
  }

  static void register(Vertx vertx, Driver driver, SqlExecutorVerticle executor) {
    NODES.computeIfAbsent(vertx, v -> new ConcurrentHashMap<>()).put(driver, executor);
  }

  static void unregister(Vertx vertx, Driver driver, SqlExecutorVerticle executor) {
    Map<Driver, SqlExecutorVerticle> node = NODES.get(vertx);
    if (node != null) {
      node.remove(driver, executor);
      if (node.isEmpty()) {
        NODES.remove(vertx, node);
      }
    }
  }

  /** Whether a request for {@code driver} on {@code vertx} is handed over directly. */
  static boolean deployedHere(Vertx vertx, Driver driver) {
    Map<Driver, SqlExecutorVerticle> node = NODES.get(vertx);
    return node != null && node.containsKey(driver);
  }

  /**
   * Runs {@code request} on the node's executor of {@code driver}; the answer arrives on the
   * caller's context. Failures are {@link SqlError}s; an executor that has not answered
   * {@code timeoutMs} after taking the request fails it with a timeout, as the bus would.
   */
  public static Future<JsonObject> execute(Vertx vertx, Driver driver, SqlRequest request, long timeoutMs) {
    Map<Driver, SqlExecutorVerticle> node = NODES.get(vertx);
    SqlExecutorVerticle executor = node == null ? null : node.get(driver);
    if (executor == null) {
      return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver), request,
              new DeliveryOptions().setSendTimeout(timeoutMs))
          .map(m -> m.body()).recover(err -> Future.failedFuture(SqlError.from(err)));
    }
    io.vertx.core.Promise<JsonObject> answer = ((ContextInternal) vertx.getOrCreateContext()).promise();
    executor.submit(request, answer, timeoutMs);
    return answer.future();
  }
}
