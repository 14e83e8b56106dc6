package dev.sluice.bus;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Receivers of one-way messages on this node, by the address they also consume on the bus. A
 * message for one of them is handed over as one task on its context, the same kind of task the
 * bus would have queued there (so messages keep their order), without the bus's message and
 * delivery objects. A receiver on another node, or one not registered, is reached over the bus.
 */
public final class LocalReceivers {

  private record Receiver(Context context, Handler<JsonObject> handler) {
  }

  private final NodeLocal<String, Receiver> receivers = new NodeLocal<>();

  /** {@code handler} takes what is sent to {@code address} on this node, on {@code context}. */
  public void register(Vertx vertx, String address, Context context, Handler<JsonObject> handler) {
    receivers.register(vertx, address, new Receiver(context, handler));
  }

  public void unregister(Vertx vertx, String address) {
    Receiver r = receivers.get(vertx, address);
    if (r != null) {
      receivers.unregister(vertx, address, r);
    }
  }

  /** Hands {@code message} to the receiver of {@code address} on this node; false when there is none. */
  public boolean deliver(Vertx vertx, String address, JsonObject message) {
    Receiver r = receivers.get(vertx, address);
    if (r == null) {
      return false;
    }
    r.context().runOnContext(v -> r.handler().handle(message));
    return true;
  }
}
