package dev.sluice.mcp;

import dev.sluice.bus.ByReferenceJson;
import dev.sluice.bus.NodeLocal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * This node's session shards, for the HTTP verticles of the same node. A POST for a session held
 * here is handed to its shard as a task on the shard's event loop, and the answer comes back as
 * one on the caller's: no event-bus request with its reply address, reply handler, timeout timer
 * and delivery objects, nor the context Vert.x 5.0.10 creates on every reply. A session held by
 * another node, or a shard not (or no longer) deployed here, is reached over the bus as before,
 * with the same failures ({@code ReplyException}s).
 */
public final class LocalShards {

  /** Each node's session shards by address; a shard registers itself while it runs. */
  static final NodeLocal<String, SessionShardVerticle> SHARDS = new NodeLocal<>();

  private LocalShards() {
  }

  /**
   * The shard's answer to {@code op}, on the caller's context; a shard that has not answered
   * {@code timeoutMs} after taking the request fails it with a bus timeout.
   */
  public static Future<JsonObject> request(Vertx vertx, String address, JsonObject op, long timeoutMs) {
    return SHARDS.request(vertx, address, (shard, answer) -> shard.submit(op, answer, timeoutMs),
        () -> vertx.eventBus().<JsonObject>request(address, op, ByReferenceJson.options().setSendTimeout(timeoutMs))
            .map(Message::body));
  }
}
