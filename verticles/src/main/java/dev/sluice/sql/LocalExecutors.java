package dev.sluice.sql;

import dev.sluice.bus.NodeLocal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

/**
 * This node's executor verticles, for callers on the same node. The executor's consumer of
 * {@link SqlBus#execute} is node-local anyway; handed over directly, a request costs two tasks on
 * the event loops (there and back) instead of an event-bus message with its reply address, reply
 * handler, timeout timer and delivery objects (1.7 of the 29 KB a small call allocated), and
 * Vert.x 5.0.10 creates a whole context on every reply. A caller on a node whose executor is not
 * (or no longer) deployed goes over the bus as before.
 */
public final class LocalExecutors {

  /** Each node's executors by engine; an executor registers itself while it runs. */
  static final NodeLocal<Driver, SqlExecutorVerticle> EXECUTORS = new NodeLocal<>();

  private LocalExecutors() {
  }

  /**
   * Runs {@code request} on the node's executor of {@code driver}; the answer arrives on the
   * caller's context. Failures are {@link SqlError}s; an executor that has not answered
   * {@code timeoutMs} after taking the request fails it with a timeout, as the bus would.
   */
  public static Future<JsonObject> execute(Vertx vertx, Driver driver, SqlRequest request, long timeoutMs) {
    return EXECUTORS.request(vertx, driver, (executor, answer) -> executor.submit(request, answer, timeoutMs),
        () -> vertx.eventBus().<JsonObject>request(SqlBus.execute(driver), request,
                new DeliveryOptions().setSendTimeout(timeoutMs))
            .map(m -> m.body()).recover(err -> Future.failedFuture(SqlError.from(err))));
  }
}
