package dev.sluice.bus;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The verticles of each Vert.x instance (node) that callers on the same node hand requests to
 * directly instead of over the event bus, by name. A verticle registers when it starts and leaves
 * when it stops; a caller that finds none goes over the bus.
 */
public final class NodeLocal<K, V> {

  private final Map<Vertx, Map<K, V>> nodes = new ConcurrentHashMap<>();

  public void register(Vertx vertx, K name, V verticle) {
    nodes.computeIfAbsent(vertx, v -> new ConcurrentHashMap<>()).put(name, verticle);
  }

  public void unregister(Vertx vertx, K name, V verticle) {
    Map<K, V> node = nodes.get(vertx);
    if (node != null) {
      node.remove(name, verticle);
      if (node.isEmpty()) {
        nodes.remove(vertx, node);
      }
    }
  }

  /**
   * The answer of the verticle registered as {@code name} on {@code vertx}, handed the request by
   * {@code submit} with a promise that completes on the caller's context; where none is
   * registered, {@code overTheBus}'s.
   */
  public <R> Future<R> request(Vertx vertx, K name, BiConsumer<V, Promise<R>> submit,
      Supplier<Future<R>> overTheBus) {
    V verticle = get(vertx, name);
    if (verticle == null) {
      return overTheBus.get();
    }
    Promise<R> answer = ((ContextInternal) vertx.getOrCreateContext()).promise();
    submit.accept(verticle, answer);
    return answer.future();
  }

  /** The verticle registered as {@code name} on {@code vertx}, or null. */
  public V get(Vertx vertx, K name) {
    Map<K, V> node = nodes.get(vertx);
    return node == null ? null : node.get(name);
  }
}
