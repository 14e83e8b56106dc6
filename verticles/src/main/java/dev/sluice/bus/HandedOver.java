package dev.sluice.bus;

import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The requests a verticle took by direct hand-over and has not answered, each with when its
 * caller stops waiting: what the event bus's reply timer did per request, kept by the verticle's
 * own periodic sweep instead. Lives on the verticle's context.
 */
public final class HandedOver<T> {

  private final Map<Promise<T>, Long> waiting = new IdentityHashMap<>();

  public void add(Promise<T> answer, long timeoutMs) {
    waiting.put(answer, System.currentTimeMillis() + timeoutMs);
  }

  /** True (once) when {@code answer} was still waiting: the caller is answered now. */
  public boolean remove(Promise<T> answer) {
    return waiting.remove(answer) != null;
  }

  /** Fails every request whose caller gave up by {@code now}. */
  public void failOverdue(long now, Supplier<Throwable> failure) {
    if (waiting.isEmpty()) {
      return;
    }
    List<Promise<T>> overdue = new ArrayList<>();
    // collected first: an IdentityHashMap entry is no longer valid once removed through its iterator
    waiting.forEach((answer, giveUpAt) -> {
      if (giveUpAt <= now) {
        overdue.add(answer);
      }
    });
    for (Promise<T> answer : overdue) {
      waiting.remove(answer);
      answer.tryFail(failure.get());
    }
  }
}
