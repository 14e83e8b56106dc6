package dev.sluice.mcp.stateless;

import dev.sluice.console.ConsoleBus;
import dev.sluice.mcp.RunningCall;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stateless (2026-07-28) tools/calls in flight on this node, for the operator's console: they
 * belong to no session shard, so the node answers the console's census for them once ({@link
 * ConsoleBus#CENSUS}) and cancels one on the operator's word ({@link ConsoleBus#cancelStateless}),
 * the way a client closing the call's stream does (its queries are cancelled at the engine). One
 * per node, shared by every event loop's {@link StatelessHandler}; a call is read and cancelled on
 * its own loop.
 */
public final class NodeCalls {

  private record Running(RunningCall call, Context context) {}

  private final Vertx vertx;
  private final String nodeId;
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private final AtomicLong seq = new AtomicLong();
  private final AtomicBoolean announcePending = new AtomicBoolean();
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  public NodeCalls(Vertx vertx, String nodeId) {
    this.vertx = vertx;
    this.nodeId = nodeId;
  }

  /** Registers the census and cancel consumers; once per node. */
  public Future<Void> start() {
    consumers.add(vertx.eventBus().consumer(ConsoleBus.CENSUS, this::census));
    consumers.add(vertx.eventBus().consumer(ConsoleBus.cancelStateless(nodeId), this::cancel));
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
  }

  /** A node stopping on a Vert.x it does not own no longer answers for its calls. */
  public Future<Void> stop() {
    return Future.all(consumers.stream().map(MessageConsumer::unregister).toList()).mapEmpty();
  }

  /**
   * A call started on the current event loop; returns its id in the console, unique in the cluster
   * (a JSON-RPC id is not: every stateless client may number its requests from 1).
   */
  String started(RunningCall call) {
    String id = ConsoleBus.statelessId(nodeId, seq.incrementAndGet());
    running.put(id, new Running(call, Vertx.currentContext()));
    changed();
    return id;
  }

  void ended(String id) {
    running.remove(id);
    changed();
  }

  /** Open consoles refresh, once per coalescing window. */
  private void changed() {
    if (announcePending.compareAndSet(false, true)) {
      vertx.setTimer(ConsoleBus.CHANGE_COALESCE_MS, t -> {
        announcePending.set(false);
        vertx.eventBus().publish(ConsoleBus.CHANGED, nodeId);
      });
    }
  }

  /** Each call's view is taken on its own loop (its fields are that loop's), then all are sent at once. */
  private void census(Message<JsonObject> msg) {
    List<Future<JsonObject>> views = new ArrayList<>();
    running.forEach((id, r) -> {
      Promise<JsonObject> view = Promise.promise();
      r.context().runOnContext(v -> view.complete(r.call().consoleView().put("statelessId", id)
          .put("stateless", true).putNull("sessionId").put("node", nodeId)));
      views.add(view.future());
    });
    Future.join(views).onComplete(ar -> {
      JsonArray calls = new JsonArray();
      views.stream().filter(Future::succeeded).forEach(f -> calls.add(f.result()));
      vertx.eventBus().send(msg.body().getString("replyTo"), new JsonObject()
          .put("censusId", msg.body().getString("censusId")).put("node", nodeId).put("stateless", true)
          .put("sessions", new JsonArray()).put("calls", calls));
    });
  }

  private void cancel(Message<JsonObject> msg) {
    String id = msg.body().getString("statelessId");
    Running r = id == null ? null : running.get(id);
    if (r == null) {
      msg.reply(new JsonObject().put("cancelled", false)
          .put("reason", "no stateless call " + id + " running on node " + nodeId + " (it may have ended already)"));
      return;
    }
    r.context().runOnContext(v -> {
      r.call().cancelByOperator(msg.body().getString("by"));
      changed();
      msg.reply(new JsonObject().put("cancelled", true));
    });
  }
}
