package dev.sluice.console;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The console's live view pushed over SSE: each open page gets the whole census when sessions or
 * calls change anywhere in the cluster ({@link ConsoleBus#CHANGED}), and once a second while calls
 * run (their progress moves). A page that does not read is skipped, not buffered for: the next
 * push carries the whole state anyway. One per HTTP verticle; its streams live on its loop.
 */
final class LiveFeed {

  /** While calls run, the view is refreshed this often (progress messages, elapsed time). */
  static final long RUNNING_REFRESH_MS = 1_000;
  /** Comments keep idle proxies from closing the stream. */
  static final long KEEPALIVE_MS = 15_000;
  /** The charts' 15 minutes, pushed this often (they move by the second; a glance is enough). */
  static final long CHARTS_MS = 5_000;

  private final Vertx vertx;
  private final Census census;
  private final java.util.function.Supplier<JsonObject> charts;
  private long chartsTimer = -1;
  private final Set<HttpServerResponse> streams = new LinkedHashSet<>();
  private MessageConsumer<String> changes;
  private boolean censusRunning;
  private boolean changedSince;
  private boolean callsRunning;
  private long refreshTimer = -1;
  private long keepAliveTimer = -1;

  LiveFeed(Vertx vertx, Census census, java.util.function.Supplier<JsonObject> charts) {
    this.vertx = vertx;
    this.census = census;
    this.charts = charts;
  }

  void start() {
    changes = vertx.eventBus().consumer(ConsoleBus.CHANGED, m -> refresh());
    keepAliveTimer = vertx.setPeriodic(KEEPALIVE_MS, t -> write(Buffer.buffer(": keep-alive\n\n")));
    chartsTimer = vertx.setPeriodic(CHARTS_MS, t -> {
      if (!streams.isEmpty()) {
        write(chartsEvent());
      }
    });
  }

  void stop() {
    vertx.cancelTimer(keepAliveTimer);
    vertx.cancelTimer(refreshTimer);
    vertx.cancelTimer(chartsTimer);
    if (changes != null) {
      changes.unregister();
    }
    streams.forEach(r -> r.end());
    streams.clear();
  }

  void open(HttpServerResponse res) {
    res.setStatusCode(200).putHeader("Content-Type", "text/event-stream")
        .putHeader("Cache-Control", "no-store, no-transform").putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
    res.write(": sluice console\n\n");
    streams.add(res);
    res.closeHandler(v -> streams.remove(res));
    res.write(chartsEvent());
    refresh();
  }

  int openStreams() {
    return streams.size();
  }

  /** Takes one census for all open pages; changes during a census lead to one more afterwards. */
  private void refresh() {
    if (streams.isEmpty()) {
      return;
    }
    if (censusRunning) {
      changedSince = true;
      return;
    }
    censusRunning = true;
    census.take().onComplete(ar -> {
      censusRunning = false;
      if (ar.succeeded()) {
        JsonObject live = ar.result();
        write(Buffer.buffer("event: live\ndata: " + live.encode() + "\n\n"));
        callsRunning = !live.getJsonArray("calls").isEmpty();
      }
      if (changedSince) {
        changedSince = false;
        refresh();
      } else if (callsRunning && refreshTimer < 0 && !streams.isEmpty()) {
        refreshTimer = vertx.setTimer(RUNNING_REFRESH_MS, t -> {
          refreshTimer = -1;
          refresh();
        });
      }
    });
  }

  private Buffer chartsEvent() {
    return Buffer.buffer("event: charts\ndata: " + charts.get().encode() + "\n\n");
  }

  private void write(Buffer b) {
    for (HttpServerResponse r : streams) {
      if (!r.writeQueueFull()) {
        r.write(b);
      }
    }
  }
}
