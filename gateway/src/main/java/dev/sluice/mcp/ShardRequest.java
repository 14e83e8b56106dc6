package dev.sluice.mcp;

import dev.sluice.bus.ByReferenceJson;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

/**
 * A request to a session shard and its one answer: from the event bus (another node's HTTP
 * verticle, a GET or DELETE), or handed over on this node ({@link LocalShards}).
 */
interface ShardRequest {

  JsonObject body();

  /** The answer; a copy of it where it crosses to another event loop. */
  void reply(JsonObject answer);

  /** The answer as it is: built for this reply alone and never changed after. */
  void replyByReference(JsonObject answer);

  /** A failure with a status code, as the bus carries it (a {@code ReplyException}). */
  void fail(int code, String message);

  /** A request that came over the event bus. */
  record OverTheBus(Message<JsonObject> msg) implements ShardRequest {

    @Override
    public JsonObject body() {
      return msg.body();
    }

    @Override
    public void reply(JsonObject answer) {
      msg.reply(answer);
    }

    @Override
    public void replyByReference(JsonObject answer) {
      msg.reply(answer, ByReferenceJson.options());
    }

    @Override
    public void fail(int code, String message) {
      msg.fail(code, message);
    }
  }
}
