package dev.sluice.sql.pool;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;

/**
 * Where wait queues report per-principal depth and wait: the gateway installs its /metrics
 * implementation on the Vert.x instance before it deploys the executors; without one, nothing is
 * recorded. Called on the executors' contexts, so implementations must be thread-safe.
 */
public interface QueueMeters extends Shareable {

  /** {@code waiting} calls of {@code principal} wait for a connection of {@code connectionId}. */
  void depth(String connectionId, String principal, int waiting);

  /** A call of {@code principal} got its connection after waiting {@code ms}. */
  void waited(String connectionId, String principal, double ms);

  QueueMeters NONE = new QueueMeters() {
    @Override
    public void depth(String connectionId, String principal, int waiting) { }

    @Override
    public void waited(String connectionId, String principal, double ms) { }
  };

  String MAP = "sluice.queue-meters";

  static void install(Vertx vertx, QueueMeters meters) {
    vertx.sharedData().<String, QueueMeters>getLocalMap(MAP).put("meters", meters);
  }

  static QueueMeters of(Vertx vertx) {
    LocalMap<String, QueueMeters> map = vertx.sharedData().getLocalMap(MAP);
    QueueMeters m = map.get("meters");
    return m == null ? NONE : m;
  }
}
