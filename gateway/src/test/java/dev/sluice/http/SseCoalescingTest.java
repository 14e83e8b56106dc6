package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A call's SSE events are written together: progress waits up to {@link SseFlushTick#DELAY_MS}
 * for more, the end goes at once with whatever is queued. A call that answers quickly costs one
 * socket write; a long call's progress still reaches the client while it runs, in order.
 */
class SseCoalescingTest {

  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static void onContext(Context ctx, Runnable r) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      r.run();
      done.complete(null);
    });
    done.get(10, TimeUnit.SECONDS);
  }

  private static JsonObject progress(int n) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/progress")
        .put("params", new JsonObject().put("progressToken", "t").put("progress", n));
  }

  @Test
  void aQuickCallsHeadersProgressAndResultLeaveInOneWrite() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    RecordingResponse rec = new RecordingResponse();
    SseSink sink = new SseFlushTick(vertx, ctx).open(rec.response());
    onContext(ctx, () -> {
      sink.event("s_1", progress(0));
      sink.start();
    });
    // the executor's progress comes in a later run of the loop, the result in yet another
    onContext(ctx, () -> sink.event("s_2", progress(1)));
    onContext(ctx, () -> {
      sink.event("s_3", progress(2));
      sink.event("s_4", new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("result", new JsonObject()));
      sink.end();
    });
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!rec.ended() && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    List<String> writes = rec.writes();
    assertEquals(1, writes.size(), "one write: " + writes);
    String all = writes.get(0);
    assertTrue(all.indexOf("id: s_1") < all.indexOf("id: s_2") && all.indexOf("id: s_2") < all.indexOf("id: s_3")
        && all.indexOf("id: s_3") < all.indexOf("id: s_4"), "in order: " + all);
    assertTrue(rec.ended());
  }

  @Test
  void aLongCallsProgressIsWrittenWithinTheDelayWhileItRuns() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    RecordingResponse rec = new RecordingResponse();
    SseSink sink = new SseFlushTick(vertx, ctx).open(rec.response());
    long t0 = System.nanoTime();
    onContext(ctx, () -> {
      sink.start();
      sink.event("s_1", progress(0));
      sink.event("s_2", progress(1));
    });
    long until = t0 + TimeUnit.SECONDS.toNanos(5);
    while (rec.writes().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    List<String> writes = rec.writes();
    assertEquals(1, writes.size(), "both progress events in one write, before the end: " + writes);
    assertTrue(writes.get(0).contains("id: s_1") && writes.get(0).contains("id: s_2"));
    assertFalse(rec.ended(), "the stream stays open");
    // the timer's own slack on a busy machine is allowed for; a write held until the end is not
    assertTrue(waitedMs >= SseFlushTick.DELAY_MS - 1 && waitedMs < 2_000, "written after " + waitedMs + " ms");
    onContext(ctx, sink::end);
  }
}
