package dev.sluice.bus;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;

/**
 * A JsonObject sent node-locally as the object itself, not the deep copy Vert.x's default codec
 * makes for every local delivery; across a cluster it travels as JSON, like the default.
 *
 * <p>Only for messages that nobody changes once sent: a call's result and progress from the
 * executor, the events of an SSE stream (whose replay buffer keeps the same object), the HTTP
 * verticle's post to a session shard and the shard's answer. Each of these is built for the one
 * send and read, never written, by its receiver.
 */
public final class ByReferenceJson implements MessageCodec<JsonObject, JsonObject> {

  public static final String NAME = "sluice-json-by-reference";

  /** Makes the codec usable on this Vert.x instance's bus; safe to call more than once. */
  public static void register(Vertx vertx) {
    synchronized (ByReferenceJson.class) {
      try {
        vertx.eventBus().registerCodec(new ByReferenceJson());
      } catch (IllegalStateException alreadyRegistered) {
        // another verticle of this Vert.x instance did it
      }
    }
  }

  /** Delivery options that send by reference. */
  public static DeliveryOptions options() {
    return new DeliveryOptions().setCodecName(NAME);
  }

  @Override
  public void encodeToWire(Buffer buffer, JsonObject json) {
    Buffer encoded = json.toBuffer();
    buffer.appendInt(encoded.length()).appendBuffer(encoded);
  }

  @Override
  public JsonObject decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    return new JsonObject(buffer.getBuffer(pos + 4, pos + 4 + length));
  }

  @Override
  public JsonObject transform(JsonObject json) {
    return json;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
