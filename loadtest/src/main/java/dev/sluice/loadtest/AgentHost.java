package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Pins a share of the agents to one event loop: every agent whose index modulo the instance count
 * equals this instance's index runs here, so agents spread evenly over the client's loops.
 */
final class AgentHost extends VerticleBase {

  private final int index;
  private final int instances;
  private final int agents;
  private final Function<Integer, Future<Void>> startAgent;
  private final Promise<Void> finished;

  AgentHost(int index, int instances, int agents, Function<Integer, Future<Void>> startAgent,
      Promise<Void> finished) {
    this.index = index;
    this.instances = instances;
    this.agents = agents;
    this.startAgent = startAgent;
    this.finished = finished;
  }

  @Override
  public Future<?> start() {
    List<Future<Void>> all = new ArrayList<>();
    for (int i = index; i < agents; i += instances) {
      all.add(startAgent.apply(i));
    }
    Future.join(all).onComplete(ar -> finished.tryComplete());
    return Future.succeededFuture();
  }
}
