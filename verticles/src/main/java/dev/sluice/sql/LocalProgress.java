package dev.sluice.sql;

import dev.sluice.bus.LocalReceivers;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The receivers of executor progress on this node, by their progress address. A call reports
 * three stages (validating, executing, rows fetched); sent over the event bus each was a message
 * with its delivery objects, handed over directly ({@link LocalReceivers}) each is one task on the
 * receiver's context, so stages and the answer keep their order. Progress for a receiver on
 * another node, or one not registered, still goes over the bus.
 */
public final class LocalProgress {

  private static final LocalReceivers RECEIVERS = new LocalReceivers();

  private LocalProgress() {
  }

  /** {@code handler} takes the progress sent to {@code address} on this node, on {@code context}. */
  public static void register(Vertx vertx, String address, Context context, Handler<JsonObject> handler) {
    RECEIVERS.register(vertx, address, context, handler);
  }

  public static void unregister(Vertx vertx, String address) {
    RECEIVERS.unregister(vertx, address);
  }

  /** Hands {@code progress} to the receiver of {@code address} on this node; false when there is none. */
  static boolean deliver(Vertx vertx, String address, JsonObject progress) {
    return RECEIVERS.deliver(vertx, address, progress);
  }
}
