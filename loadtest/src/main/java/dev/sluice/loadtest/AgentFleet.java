package dev.sluice.loadtest;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Starts {@code n} agents spread over the event loops and waits (on the caller's thread) for all. */
final class AgentFleet {

  private AgentFleet() {}

  /**
   * Runs {@code startAgent(i)} for i in [0, n) on one of the event loops. Blocks the calling thread
   * (a plain main thread, never an event loop) until every agent future completed or
   * {@code waitSeconds} passed.
   */
  static void run(Vertx vertx, int n, int loops, Function<Integer, Future<Void>> startAgent, double waitSeconds)
      throws Exception {
    int instances = Math.max(1, Math.min(loops, n));
    List<Future<Void>> finished = new ArrayList<>();
    List<Promise<Void>> promises = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      Promise<Void> p = Promise.promise();
      promises.add(p);
      finished.add(p.future());
    }
    AtomicInteger next = new AtomicInteger();
    String id = vertx.deployVerticle(() -> {
      int i = next.getAndIncrement();
      return new AgentHost(i, instances, n, startAgent, promises.get(i));
    }, new DeploymentOptions().setInstances(instances)).toCompletionStage().toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    try {
      Future.join(finished).toCompletionStage().toCompletableFuture()
          .get(Math.round(waitSeconds * 1000), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      // report what was measured rather than nothing; stragglers are cut off by the undeploy
      System.err.printf("warning: agents still running after %.0f s; reporting what completed%n", waitSeconds);
    } finally {
      vertx.undeploy(id).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
