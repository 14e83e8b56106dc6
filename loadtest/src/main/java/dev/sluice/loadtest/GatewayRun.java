package dev.sluice.loadtest;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/** One load level against the gateway: N virtual agents for the duration, measured. */
public final class GatewayRun {

  private GatewayRun() {}

  /** Client pool: each agent may hold a call stream, a GET stream and a cancel POST at once. */
  static HttpClientAgent client(Vertx vertx, int agents) {
    return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(10_000)
        .setMaxInitialLineLength(8192), new PoolOptions().setHttp1MaxSize(agents * 2 + 16));
  }

  /** Runs {@code agents} agents with {@code o}'s mix and bounds; returns the result JSON. */
  public static JsonObject run(Vertx vertx, LoadOptions o, int agents, Mix mix) throws Exception {
    Routes routes = Routes.of(o.url);
    // with several nodes, the probe watches the last one (the drill kills another)
    URI uri = Loopback.require(routes.urls().get(routes.urls().size() - 1));
    NodeKiller killer = o.killPid > 0 ? new NodeKiller(o.killPid, o.killAfterSeconds) : NodeKiller.NONE;
    try (GatewayProbe probe = new GatewayProbe(uri, routes.clustered() ? -1 : o.gatewayPid, o.token)) {
      JsonObject before = probe.sample();
      double generatorCpu = GeneratorCpu.seconds();
      probe.start();
      HttpClientAgent http = client(vertx, agents);
      long origin = System.nanoTime();
      long deadline = origin + Math.round(o.durationSeconds * 1e9);
      Stats stats = new Stats(origin);
      AtomicLong budget = new AtomicLong(o.maxCalls);
      long rampMs = Math.round(o.rampUpSeconds * 1000);
      killer.schedule(vertx, origin);
      try {
        AgentFleet.run(vertx, agents, o.eventLoops, i -> {
          McpSession session = new McpSession(vertx, http, routes, o.token, o.callTimeoutMs);
          VirtualAgent agent = routes.clustered()
              ? new VirtualAgent(vertx, session, mix, stats, budget, deadline, o.thinkTimeMs, o.sse, routes, killer)
              : new VirtualAgent(vertx, session, mix, stats, budget, deadline, o.thinkTimeMs, o.sse);
          return agent.run(agents == 1 ? 0 : rampMs * i / agents);
        }, o.durationSeconds + o.callTimeoutMs / 1000.0 + 30);
      } finally {
        http.close();
      }
      double elapsed = (System.nanoTime() - origin) / 1e9;
      JsonObject after = probe.sample();
      // calls still running at the deadline finish after it, so throughput uses the real span
      JsonObject result = stats.toJson(elapsed);
      if (routes.clustered()) {
        result.put("nodes", routes.urls().size()).put("killedAtSeconds", killer.killedAtSeconds(origin));
      }
      result.put("mode", "gateway").put("agents", agents).put("mix", mix.toString())
          .put("gateway", gatewayUsage(before, after, probe, stats.totalCalls()))
          .put("generatorCpuSeconds", Math.round((GeneratorCpu.seconds() - generatorCpu) * 1000) / 1000.0);
      return result;
    }
  }

  static JsonObject gatewayUsage(JsonObject before, JsonObject after, GatewayProbe probe, long calls) {
    JsonObject g = new JsonObject().put("before", before).put("after", after)
        .put("peakHeapBytes", probe.peakHeapBytes());
    Double c0 = before.getDouble("cpuSeconds");
    Double c1 = after.getDouble("cpuSeconds");
    if (c0 != null && c1 != null) {
      double cpu = c1 - c0;
      g.put("cpuSeconds", Math.round(cpu * 1000) / 1000.0).put("cpuSource", after.getString("cpuSource"));
      if (calls > 0) {
        g.put("cpuMicrosPerCall", Math.round(cpu * 1e6 / calls * 10) / 10.0);
      }
    }
    JsonObject t0 = before.getJsonObject("threadCpuSeconds");
    JsonObject t1 = after.getJsonObject("threadCpuSeconds");
    if (t0 != null && t1 != null && calls > 0) {
      JsonObject perCall = new JsonObject();
      for (String kind : t1.fieldNames()) {
        double seconds = t1.getDouble(kind) - t0.getDouble(kind, 0.0);
        perCall.put(kind, Math.round(seconds * 1e6 / calls * 10) / 10.0);
      }
      g.put("threadCpuMicrosPerCall", perCall);
    }
    return g;
  }
}
