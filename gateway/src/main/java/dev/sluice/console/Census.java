package dev.sluice.console;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Asks every session shard of every node for its sessions and calls in flight, and every node for
 * its stateless calls ({@link ConsoleBus#CENSUS}), and merges the answers. One per HTTP verticle, with one stable reply address:
 * no consumer is registered per request. A single node knows how many shards it has and is done
 * when all answered; a cluster cannot know how many shards will answer, so it listens for a short
 * window instead.
 */
final class Census {

  /** How long a clustered census waits for other nodes' shards. */
  static final long CLUSTER_WINDOW_MS = 300;
  /** Bound on a single node's census (a shard stuck behind a long task answers late). */
  static final long LOCAL_TIMEOUT_MS = 2_000;

  private final Vertx vertx;
  private final String nodeId;
  private final int localShards;
  private final String replyAddress = "sluice.console.census-reply." + UUID.randomUUID();
  private final Map<String, Pending> pending = new HashMap<>();
  private MessageConsumer<JsonObject> consumer;

  private static final class Pending {
    final Promise<JsonObject> done = Promise.promise();
    final List<JsonObject> answers = new ArrayList<>();
    int local;
  }

  Census(Vertx vertx, String nodeId, int localShards) {
    this.vertx = vertx;
    this.nodeId = nodeId;
    this.localShards = localShards;
  }

  Future<Void> start() {
    consumer = vertx.eventBus().consumer(replyAddress, m -> {
      Pending p = pending.get(m.body().getString("censusId"));
      if (p != null) {
        p.answers.add(m.body());
        // this node's shards answer one each, and the node once more for its stateless calls
        if (nodeId.equals(m.body().getString("node")) && ++p.local >= localShards + 1 && !vertx.isClustered()) {
          finish(m.body().getString("censusId"));
        }
      }
    });
    return consumer.completion();
  }

  /** {@code {nodes:[...], sessions:[...], calls:[...], at}} across the cluster. */
  Future<JsonObject> take() {
    String id = UUID.randomUUID().toString();
    Pending p = new Pending();
    pending.put(id, p);
    vertx.eventBus().publish(ConsoleBus.CENSUS, new JsonObject().put("replyTo", replyAddress).put("censusId", id));
    vertx.setTimer(vertx.isClustered() ? CLUSTER_WINDOW_MS : LOCAL_TIMEOUT_MS, t -> finish(id));
    return p.done.future();
  }

  private void finish(String id) {
    Pending p = pending.remove(id);
    if (p == null) {
      return;
    }
    TreeSet<String> nodes = new TreeSet<>();
    nodes.add(nodeId);
    JsonArray sessions = new JsonArray();
    JsonArray calls = new JsonArray();
    for (JsonObject a : p.answers) {
      nodes.add(a.getString("node"));
      sessions.addAll(a.getJsonArray("sessions"));
      calls.addAll(a.getJsonArray("calls"));
    }
    p.done.complete(new JsonObject().put("node", nodeId).put("nodes", new JsonArray(new ArrayList<>(nodes)))
        .put("sessions", sort(sessions, "openedAt")).put("calls", sort(calls, "startedAt"))
        .put("at", System.currentTimeMillis()));
  }

  private static JsonArray sort(JsonArray a, String key) {
    List<Object> l = new ArrayList<>(a.stream().map(JsonObject.class::cast)
        .sorted(java.util.Comparator.comparingLong((JsonObject o) -> o.getLong(key, 0L))).toList());
    return new JsonArray(l);
  }
}
