package dev.sluice.loadtest;

import io.vertx.core.Vertx;

/**
 * Kills one gateway node with SIGKILL partway through a run (the node-loss drill), and tells the
 * agents when it happened: from then on, a call cut off by the dead node and a session that died
 * with it (404) are the expected cost of the loss, not errors.
 */
final class NodeKiller {

  static final NodeKiller NONE = new NodeKiller(-1, 0);

  private final long pid;
  private final double afterSeconds;
  private volatile long killedAtNanos = -1;

  NodeKiller(long pid, double afterSeconds) {
    this.pid = pid;
    this.afterSeconds = afterSeconds;
  }

  void schedule(Vertx vertx, long originNanos) {
    if (pid <= 0) {
      return;
    }
    vertx.setTimer(Math.max(1, Math.round(afterSeconds * 1000)), t -> vertx.executeBlocking(() -> {
      ProcessHandle node = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
      killedAtNanos = System.nanoTime();
      node.destroyForcibly();
      System.err.printf("node-loss drill: killed pid %d (SIGKILL) at %.1f s%n", pid,
          (killedAtNanos - originNanos) / 1e9);
      return null;
    }).onFailure(err -> System.err.println("node-loss drill: " + err.getMessage())));
  }

  boolean killed() {
    return killedAtNanos >= 0;
  }

  /** Seconds from the run's origin to the kill; -1 when no node was killed. */
  double killedAtSeconds(long originNanos) {
    return killedAtNanos < 0 ? -1 : Math.round((killedAtNanos - originNanos) / 1e8) / 10.0;
  }
}
