package dev.sluice.loadtest;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Idle mode: N sessions, each holding its GET event stream open and doing nothing else for the
 * duration, while one probe session pings the gateway at a steady rate. Reports how many streams
 * stayed open, the errors, the ping latency while held, and the gateway heap it cost.
 */
public final class IdleRun {

  private IdleRun() {}

  /** Holds {@code o.agents} idle sessions for the ramp-up plus the duration; returns the result JSON. */
  public static JsonObject run(Vertx vertx, LoadOptions o) throws Exception {
    URI uri = Loopback.require(o.url);
    try (GatewayProbe probe = new GatewayProbe(uri, o.gatewayPid, o.token)) {
      JsonObject before = probe.sample();
      probe.start();
      HttpClientAgent http = GatewayRun.client(vertx, o.agents);
      long origin = System.nanoTime();
      long rampMs = Math.round(o.rampUpSeconds * 1000);
      long holdUntil = origin + Math.round((o.rampUpSeconds + o.durationSeconds) * 1e9);
      Stats stats = new Stats(origin);
      AtomicLong stillOpen = new AtomicLong();
      AtomicLong settled = new AtomicLong();
      int n = o.agents;
      // sampled just before the hold ends, while every session and stream is still open
      JsonObject[] held = {new JsonObject()};
      Thread heldSampler = new Thread(() -> {
        try {
          Thread.sleep(Math.max(0, (holdUntil - System.nanoTime()) / 1_000_000 - 500));
          held[0] = probe.sample();
        } catch (InterruptedException ignored) {
          // run ended early; nothing to sample
        }
      }, "idle-held-sampler");
      heldSampler.setDaemon(true);
      heldSampler.start();
      PingProbe ping = o.pingRate > 0 ? new PingProbe(o.pingRate, origin, holdUntil) : null;
      try {
        if (ping != null) {
          ping.start(o.url, o.token);
        }
        AgentFleet.run(vertx, n, o.eventLoops, i -> {
          McpSession session = new McpSession(vertx, http, o.url, o.token, o.callTimeoutMs);
          Promise<Void> done = Promise.promise();
          vertx.setTimer(Math.max(1, n == 1 ? 0 : rampMs * i / n), t -> {
            long start = System.nanoTime();
            session.open().compose(v -> {
              long streamStart = System.nanoTime();
              return session.openStream().onSuccess(x -> stats.streamOpened(System.nanoTime() - streamStart));
            }).onComplete(ar -> {
              if (settled.incrementAndGet() == n && ping != null) {
                ping.allSessionsSettled();
              }
              if (ar.failed()) {
                stats.sessionFailed(ar.cause().getMessage() == null ? "setup" : ar.cause().getMessage());
                done.tryComplete();
                return;
              }
              stats.sessionOpened(System.nanoTime() - start);
              long holdMs = Math.max(1, (holdUntil - System.nanoTime()) / 1_000_000);
              vertx.setTimer(holdMs, t2 -> {
                if (session.streamOpen()) {
                  stillOpen.incrementAndGet();
                } else {
                  stats.sessionFailed("stream_dropped");
                }
                done.tryComplete();
              });
            });
          });
          return done.future().eventually(session::close);
        }, o.rampUpSeconds + o.durationSeconds + 120);
        heldSampler.join(5_000);
      } finally {
        http.close();
        if (ping != null) {
          ping.close();
        }
      }
      JsonObject after = probe.sample();
      if (ping != null) {
        ping.errorsByLabel().forEach(stats::unexpected);
      }
      JsonObject result = stats.toJson((System.nanoTime() - origin) / 1e9);
      if (ping != null) {
        result.put("ping", ping.toJson());
      }
      result.put("mode", "idle").put("agents", n).put("streamsOpenAtEnd", stillOpen.get())
          .put("gateway", GatewayRun.gatewayUsage(before, after, probe, 0).put("whileHeld", held[0]));
      return result;
    }
  }
}
