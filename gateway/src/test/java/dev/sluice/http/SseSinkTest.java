package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One stream's writes. Keep-alive comments are due per stream, 20 s apart, the first at a random
 * 10-20 s: streams opened in one burst must not all be written in the same tick (one timer writing
 * 10,000 idle streams at once stalled an event loop for hundreds of milliseconds). A call's events
 * are written together: progress waits up to {@link SseFlushTick#DELAY_MS} for more, the end goes
 * at once with whatever is queued, so a quick call costs one socket write and a long call's
 * progress still reaches the client while it runs, in order.
 */
class SseSinkTest {

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

  // ---- coalescing ----------------------------------------------------------------------------

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
    assertTrue(all.endsWith("\n\nid: s_4\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"), all);
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

  /** Polls until {@code rec} has {@code n} writes; the time from {@code sinceNanos} to the last, in ms. */
  private static long msUntilWrites(RecordingResponse rec, int n, CompletableFuture<Long> sinceNanos) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (rec.writes().size() < n && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    long at = System.nanoTime();
    assertEquals(n, rec.writes().size(), "writes: " + rec.writes());
    return TimeUnit.NANOSECONDS.toMillis(at - sinceNanos.get(5, TimeUnit.SECONDS));
  }

  @Test
  void aStreamThatAsksLateInABurstStillWaitsItsWholeDelay() throws Exception {
    // the tick's timer is armed by the first stream; one shared deadline wrote the second stream's
    // progress a few ms after it asked, so its call left in two writes
    Context ctx = vertx.getOrCreateContext();
    SseFlushTick tick = new SseFlushTick(vertx, ctx);
    RecordingResponse first = new RecordingResponse();
    RecordingResponse late = new RecordingResponse();
    SseSink a = tick.open(first.response());
    SseSink b = tick.open(late.response());
    CompletableFuture<Long> lateAsked = new CompletableFuture<>();
    onContext(ctx, () -> {
      a.start();
      a.event("a_1", progress(0));
      vertx.setTimer(SseFlushTick.DELAY_MS * 6 / 10, t -> {
        lateAsked.complete(System.nanoTime());
        b.start();
        b.event("b_1", progress(0));
      });
    });
    long waitedMs = msUntilWrites(late, 1, lateAsked);
    assertTrue(waitedMs >= SseFlushTick.DELAY_MS - 1, "the late stream was written " + waitedMs + " ms after it asked");
    assertEquals(1, first.writes().size());
    onContext(ctx, () -> {
      a.end();
      b.end();
    });
  }

  @Test
  void aStreamWrittenAndDeferredAgainWaitsFromItsNewRequest() throws Exception {
    // its first request's entry is still in the tick when it asks again: that entry must not
    // write the new events early
    Context ctx = vertx.getOrCreateContext();
    RecordingResponse rec = new RecordingResponse();
    SseSink sink = new SseFlushTick(vertx, ctx).open(rec.response());
    CompletableFuture<Long> askedAgain = new CompletableFuture<>();
    onContext(ctx, () -> {
      sink.start(); // headers deferred: the first entry
      sink.keepAliveIfDue(System.currentTimeMillis() + SseSink.KEEPALIVE_MS); // written now, with the headers
    });
    assertEquals(1, rec.writes().size(), "headers and comment at once: " + rec.writes());
    onContext(ctx, () -> vertx.setTimer(SseFlushTick.DELAY_MS / 2, t -> {
      askedAgain.complete(System.nanoTime());
      sink.event("s_1", progress(0));
    }));
    long waitedMs = msUntilWrites(rec, 2, askedAgain);
    assertTrue(waitedMs >= SseFlushTick.DELAY_MS - 1, "progress written " + waitedMs + " ms after it asked");
    onContext(ctx, sink::end);
  }

  @Test
  void aBurstLongerThanTheTicksFirstBufferIsWrittenWhole() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    SseFlushTick tick = new SseFlushTick(vertx, ctx);
    List<RecordingResponse> recs = new ArrayList<>();
    List<SseSink> sinks = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      recs.add(new RecordingResponse());
      sinks.add(tick.open(recs.get(i).response()));
    }
    onContext(ctx, () -> {
      for (int i = 0; i < sinks.size(); i++) {
        sinks.get(i).start();
        sinks.get(i).event("s_" + i, progress(i));
      }
    });
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (recs.stream().anyMatch(r -> r.writes().isEmpty()) && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    for (int i = 0; i < recs.size(); i++) {
      assertEquals(1, recs.get(i).writes().size(), "stream " + i);
      assertTrue(recs.get(i).writes().get(0).contains("id: s_" + i + "\n"), recs.get(i).writes().get(0));
    }
    onContext(ctx, () -> sinks.forEach(SseSink::end));
  }
}
