package dev.sluice.mcp;

import dev.sluice.console.ConsoleBus;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * One session shard's side of the operator's console ({@link ConsoleBus}): answers the census with
 * its sessions and calls in flight, cancels a call on the operator's word, and announces changes.
 * Runs on the shard's event loop, like the sessions it reads.
 */
final class ShardConsole {

  private final Vertx vertx;
  private final String nodeId;
  private final int shard;
  private final Map<String, Session> sessions;
  private boolean announcePending;

  ShardConsole(Vertx vertx, String nodeId, int shard, Map<String, Session> sessions) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.shard = shard;
    this.sessions = sessions;
  }

  List<MessageConsumer<JsonObject>> start() {
    return List.of(
        vertx.eventBus().<JsonObject>consumer(ConsoleBus.CENSUS, this::census),
        vertx.eventBus().<JsonObject>consumer(ConsoleBus.cancel(nodeId, shard), this::cancel));
  }

  /** Sessions or calls changed: open consoles refresh, once per coalescing window. */
  void changed() {
    if (announcePending) {
      return;
    }
    announcePending = true;
    vertx.setTimer(ConsoleBus.CHANGE_COALESCE_MS, t -> {
      announcePending = false;
      vertx.eventBus().publish(ConsoleBus.CHANGED, nodeId);
    });
  }

  private void census(Message<JsonObject> msg) {
    long now = System.currentTimeMillis();
    JsonArray list = new JsonArray();
    JsonArray calls = new JsonArray();
    for (Session s : sessions.values()) {
      JsonObject client = s.clientSummary();
      list.add(new JsonObject().put("sessionId", s.id).put("node", nodeId).put("principal", s.principal)
          .put("client", new JsonObject().put("name", client.getString("name"))
              .put("version", client.getString("version")))
          .put("protocolVersion", s.protocolVersion).put("openedAt", s.openedAt).put("ageMs", now - s.openedAt)
          .put("idleMs", now - s.lastSeen).put("calls", s.callCount).put("inFlight", s.inFlight.size()));
      for (ToolCall c : s.inFlight.values()) {
        calls.add(c.consoleView().put("sessionId", s.id).put("node", nodeId));
      }
    }
    vertx.eventBus().send(msg.body().getString("replyTo"), new JsonObject()
        .put("censusId", msg.body().getString("censusId")).put("node", nodeId).put("shard", shard)
        .put("sessions", list).put("calls", calls));
  }

  /** The same path as notifications/cancelled: the call's queries are cancelled at the engine. */
  private void cancel(Message<JsonObject> msg) {
    JsonObject b = msg.body();
    Session s = sessions.get(b.getString("sessionId"));
    ToolCall call = s == null ? null : s.inFlight.get(b.getString("callId"));
    if (call == null) {
      msg.reply(new JsonObject().put("cancelled", false)
          .put("reason", "no call " + b.getString("callId") + " running in session " + b.getString("sessionId")
              + " (it may have ended already)"));
      return;
    }
    call.cancelByOperator(b.getString("by"));
    changed();
    msg.reply(new JsonObject().put("cancelled", true));
  }
}
