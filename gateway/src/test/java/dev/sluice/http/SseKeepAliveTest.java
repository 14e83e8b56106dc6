package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keep-alive comments are due per stream, 20 s apart, the first at a random 10-20 s: streams
 * opened in one burst must not all be written in the same tick (one timer writing 10,000 idle
 * streams at once stalled an event loop for hundreds of milliseconds).
 */
class SseKeepAliveTest {

  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Runs {@code r} on {@code ctx} and waits until it and the flushes it scheduled have run. */
  private static void onContext(Context ctx, Runnable r) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      r.run();
      // flushes are scheduled behind r on the same loop: this runs after them
      ctx.runOnContext(x -> done.complete(null));
    });
    done.get(10, TimeUnit.SECONDS);
  }

  private static long keepAlives(List<RecordingResponse> responses) {
    return responses.stream().flatMap(r -> r.writes().stream()).filter(w -> w.contains(": keepalive")).count();
  }

  @Test
  void aStreamsCommentIsDueTenToTwentySecondsInThenEveryTwenty() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    List<RecordingResponse> writes = List.of(new RecordingResponse());
    long t0 = System.currentTimeMillis();
    SseSink sink = new SseFlushTick(vertx, ctx).open(writes.get(0).response());
    onContext(ctx, sink::start);
    onContext(ctx, () -> sink.keepAliveIfDue(t0 + SseSink.KEEPALIVE_MS / 2 - 1_000));
    assertEquals(0, keepAlives(writes), "none before 10 s");
    long first = t0 + SseSink.KEEPALIVE_MS + 1_000;
    onContext(ctx, () -> sink.keepAliveIfDue(first));
    assertEquals(1, keepAlives(writes), "one by 20 s");
    onContext(ctx, () -> sink.keepAliveIfDue(first + SseSink.KEEPALIVE_MS - 1));
    assertEquals(1, keepAlives(writes), "the next one is 20 s after the previous");
    onContext(ctx, () -> sink.keepAliveIfDue(first + SseSink.KEEPALIVE_MS));
    assertEquals(2, keepAlives(writes));
  }

  @Test
  void streamsOpenedTogetherGetTheirFirstCommentsSpreadOverTenSeconds() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    List<RecordingResponse> writes = new ArrayList<>();
    long t0 = System.currentTimeMillis();
    SseFlushTick tick = new SseFlushTick(vertx, ctx);
    List<SseSink> sinks = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      writes.add(new RecordingResponse());
      sinks.add(tick.open(writes.get(i).response()));
    }
    onContext(ctx, () -> sinks.forEach(SseSink::start));
    // first comments are spread uniformly over 10-20 s: by 12.5 s about a quarter are due, not all
    onContext(ctx, () -> sinks.forEach(s -> s.keepAliveIfDue(t0 + 12_500)));
    long byHalfway = keepAlives(writes);
    assertTrue(byHalfway > 100 && byHalfway < 400, "due by 12.5 s: " + byHalfway + " of 1000");
    onContext(ctx, () -> sinks.forEach(s -> s.keepAliveIfDue(t0 + SseSink.KEEPALIVE_MS + 1_000)));
    assertEquals(1_000, keepAlives(writes), "every stream had its first comment by 20 s");
  }
}
