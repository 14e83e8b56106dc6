package dev.sluice.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class BoundedRunnerTest {

  /** 50,000 tasks over 2 lanes, async and synchronous mixed: a compose chain this long overflowed the stack. */
  @Test
  void longTaskListsFinishWithBoundedConcurrency() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AtomicInteger inFlight = new AtomicInteger();
      AtomicInteger maxInFlight = new AtomicInteger();
      AtomicInteger done = new AtomicInteger();
      List<Supplier<Future<Void>>> tasks = new ArrayList<>();
      for (int i = 0; i < 50_000; i++) {
        boolean sync = i % 3 == 0;
        boolean fails = i % 1000 == 7;
        tasks.add(() -> {
          if (sync) {
            done.incrementAndGet();
            return fails ? Future.failedFuture("boom") : Future.succeededFuture();
          }
          maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          Promise<Void> p = Promise.promise();
          vertx.runOnContext(v -> {
            inFlight.decrementAndGet();
            done.incrementAndGet();
            if (fails) {
              p.fail("boom");
            } else {
              p.complete();
            }
          });
          return p.future();
        });
      }
      Future<Void> all = vertx.getOrCreateContext().<Future<Void>>executeBlocking(() -> null)
          .compose(v -> BoundedRunner.run(tasks.iterator(), 2));
      all.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      assertEquals(50_000, done.get());
      assertTrue(maxInFlight.get() <= 2, "in flight at once: " + maxInFlight.get());
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void sequentiallyStopsAtTheFirstFailure() throws Exception {
    AtomicInteger ran = new AtomicInteger();
    List<Supplier<Future<Void>>> tasks = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      int n = i;
      tasks.add(() -> {
        ran.incrementAndGet();
        return n == 3 ? Future.failedFuture("third") : Future.succeededFuture();
      });
    }
    Future<Void> f = BoundedRunner.sequentially(tasks.iterator());
    assertTrue(f.failed());
    assertEquals(4, ran.get());
  }
}
