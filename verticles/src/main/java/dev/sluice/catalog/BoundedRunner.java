package dev.sluice.catalog;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs tasks with at most {@code lanes} in flight: each lane takes the next task when its previous
 * one ends. A failed task does not stop its lane (the task records its own failure), unless
 * {@link #sequentially} is asked to stop at the first failure.
 *
 * <p>Lanes are loops, not chains of {@code compose}: a chain as long as the task list completes
 * by nesting one callback per task, which overflowed the stack at 5,000 tables per lane.
 */
final class BoundedRunner {

  private BoundedRunner() {}

  static Future<Void> run(Iterator<Supplier<Future<Void>>> tasks, int lanes) {
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < lanes; i++) {
      Promise<Void> lane = Promise.promise();
      drain(tasks, lane, false);
      all.add(lane.future());
    }
    return Future.all(all).mapEmpty();
  }

  /** One task after another; the first failure fails the whole run. */
  static Future<Void> sequentially(Iterator<Supplier<Future<Void>>> tasks) {
    Promise<Void> done = Promise.promise();
    drain(tasks, done, true);
    return done.future();
  }

  private static void drain(Iterator<Supplier<Future<Void>>> tasks, Promise<Void> done, boolean stopOnFailure) {
    while (tasks.hasNext()) {
      Future<Void> f = tasks.next().get();
      if (!f.isComplete()) {
        // resumes from the completing callback's own (shallow) stack
        f.onComplete(ar -> {
          if (ar.failed() && stopOnFailure) {
            done.tryFail(ar.cause());
          } else {
            drain(tasks, done, stopOnFailure);
          }
        });
        return;
      }
      if (f.failed() && stopOnFailure) {
        done.tryFail(f.cause());
        return;
      }
    }
    done.tryComplete();
  }
}
