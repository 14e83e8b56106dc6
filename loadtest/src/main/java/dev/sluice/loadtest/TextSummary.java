package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/** The one-screen stdout summary of a result file. */
final class TextSummary {

  private TextSummary() {}

  static String render(JsonObject report) {
    StringBuilder b = new StringBuilder();
    b.append("Sluice load test — ").append(report.getString("title")).append('\n');
    JsonArray runs = report.getJsonArray("runs");
    for (int i = 0; i < runs.size(); i++) {
      run(b, runs.getJsonObject(i));
    }
    JsonObject cmp = report.getJsonObject("comparison");
    if (cmp != null) {
      b.append(String.format(Locale.ROOT, "%nGateway vs direct driver (same SQL, same concurrency)%n"
          + "  %6s %12s %12s %7s %9s %9s %9s %9s%n", "agents", "gw calls/s", "direct c/s", "ratio", "gw p50",
          "dir p50", "gw p99", "dir p99"));
      JsonArray pairs = cmp.getJsonArray("pairs");
      for (int i = 0; i < pairs.size(); i++) {
        JsonObject p = pairs.getJsonObject(i);
        b.append(String.format(Locale.ROOT, "  %6d %12.1f %12.1f %6.2fx %9.2f %9.2f %9.2f %9.2f%n", p.getInteger("agents"),
            p.getDouble("gatewayThroughput"), p.getDouble("directThroughput"), p.getDouble("throughputRatio"),
            p.getDouble("gatewayP50"), p.getDouble("directP50"), p.getDouble("gatewayP99"), p.getDouble("directP99")));
      }
      int rounds = cmp.getInteger("rounds", 1);
      b.append(String.format(Locale.ROOT, "  => throughput %.2fx of direct, p50 %.2fx, p99 %.2fx%s%n",
          cmp.getDouble("throughputRatio"), cmp.getDouble("p50Ratio"), cmp.getDouble("p99Ratio"),
          rounds > 1 ? " (means of " + rounds + " alternated rounds: " + Math.round(cmp.getDouble("gatewayThroughput"))
              + " vs " + Math.round(cmp.getDouble("directThroughput")) + " calls/s)" : ""));
    }
    return b.toString();
  }

  private static void run(StringBuilder b, JsonObject r) {
    if ("idle".equals(r.getString("mode"))) {
      b.append(String.format(Locale.ROOT, "%nidle: %d sessions requested, %d opened, %d streams still open at end, "
              + "%d errors%s; setup p50 %s ms p99 %s ms%s; gateway heap %s MB before, %s MB while held "
              + "(%s sessions, %s SSE streams by its gauges), %s MB after, peak %s MB%n",
          r.getInteger("agents"), r.getJsonObject("sessions").getLong("opened"), r.getLong("streamsOpenAtEnd"),
          r.getLong("unexpectedErrorCount"), pingErrorPart(r.getJsonObject("ping")),
          ms(r.getJsonObject("sessions").getJsonObject("setupMs"), "p50"),
          ms(r.getJsonObject("sessions").getJsonObject("setupMs"), "p99"), streamPart(r.getJsonObject("sessions")),
          mb(r.getJsonObject("gateway").getJsonObject("before").getDouble("heapBytes")),
          mb(r.getJsonObject("gateway").getJsonObject("whileHeld").getDouble("heapBytes")),
          r.getJsonObject("gateway").getJsonObject("whileHeld").getValue("sessionsOpen", "?"),
          r.getJsonObject("gateway").getJsonObject("whileHeld").getValue("sseStreamsOpen", "?"),
          mb(r.getJsonObject("gateway").getJsonObject("after").getDouble("heapBytes")),
          mb(r.getJsonObject("gateway").getDouble("peakHeapBytes"))));
      JsonObject ping = r.getJsonObject("ping");
      if (ping != null) {
        b.append(String.format(Locale.ROOT, "ping while held (%s/s, all sessions set up at %s s): %s%n"
                + "ping during ramp-up: %s%n", ping.getValue("rateHz"), ping.getValue("heldFromSecond", "-"),
            pingPhase(ping.getJsonObject("held")), pingPhase(ping.getJsonObject("rampUp"))));
      }
      return;
    }
    JsonObject lat = r.getJsonObject("latencyMs");
    b.append(String.format(Locale.ROOT, "%n[%s] %d agents: %d calls in %.1f s = %.1f calls/s; latency ms p50 %s p90 %s p99 %s "
            + "p99.9 %s max %s%n", r.getString("mode"), r.getInteger("agents"), r.getLong("calls"),
        r.getDouble("elapsedSeconds"), r.getDouble("throughput"), ms(lat, "p50"), ms(lat, "p90"), ms(lat, "p99"),
        ms(lat, "p999"), ms(lat, "max")));
    b.append(String.format(Locale.ROOT, "  %-12s %8s %9s %9s %9s %9s %10s %7s%n", "scenario", "calls", "p50", "p90", "p99",
        "max", "1st-prog", "prog/c"));
    JsonObject sc = r.getJsonObject("scenarios");
    for (String name : sc.fieldNames()) {
      JsonObject s = sc.getJsonObject(name);
      JsonObject l = s.getJsonObject("latencyMs");
      b.append(String.format(Locale.ROOT, "  %-12s %8d %9s %9s %9s %9s %10s %7s%n", name, s.getLong("calls"),
          ms(l, "p50"), ms(l, "p90"), ms(l, "p99"), ms(l, "max"), ms(s.getJsonObject("firstProgressMs"), "p50"),
          s.getValue("progressEventsPerCall", "")));
    }
    JsonObject sess = r.getJsonObject("sessions");
    if (sess != null && "gateway".equals(r.getString("mode"))) {
      b.append(String.format(Locale.ROOT, "  sessions: %d opened, %d failed, setup p50 %s ms p99 %s ms%s%n",
          sess.getLong("opened"), sess.getLong("failed"), ms(sess.getJsonObject("setupMs"), "p50"),
          ms(sess.getJsonObject("setupMs"), "p99"), streamPart(sess)));
    }
    b.append("  intended outcomes: ").append(r.getJsonObject("expectedOutcomes").encode()).append('\n');
    b.append("  UNEXPECTED errors: ").append(r.getLong("unexpectedErrorCount"))
        .append(r.getLong("unexpectedErrorCount") > 0 ? " " + r.getJsonObject("unexpectedErrors").encode() : "")
        .append('\n');
    JsonObject g = r.getJsonObject("gateway");
    if (g != null) {
      Object generator = r.getValue("generatorCpuSeconds");
      long calls = r.getLong("calls", 0L);
      // the generator shares the cores with the gateway: its cost per call bounds what a run can show
      String perCall = generator instanceof Number n && calls > 0
          ? String.format(Locale.ROOT, " (%.1f µs/call)", n.doubleValue() * 1e6 / calls) : "";
      b.append(String.format(Locale.ROOT, "  gateway: cpu %s s (%s µs/call, %s); heap %s -> %s MB; generator cpu %s s%s%n",
          g.getValue("cpuSeconds", "?"), g.getValue("cpuMicrosPerCall", "?"), g.getString("cpuSource", "n/a"),
          mb(g.getJsonObject("before").getDouble("heapBytes")), mb(g.getJsonObject("after").getDouble("heapBytes")),
          generator == null ? "?" : generator, perCall));
      JsonObject t = g.getJsonObject("threadCpuMicrosPerCall");
      if (t != null) {
        b.append(String.format(Locale.ROOT, "  gateway µs/call by thread: event loops %s, JIT compiler %s, GC %s, other %s%n",
            t.getValue("eventLoops"), t.getValue("jit"), t.getValue("gc"), t.getValue("other")));
      }
    }
  }

  private static String pingErrorPart(JsonObject ping) {
    long n = ping == null ? 0 : ping.getJsonObject("held").getLong("errors") + ping.getJsonObject("rampUp").getLong("errors");
    return n == 0 ? "" : " (" + n + " of them pings)";
  }

  private static String pingPhase(JsonObject p) {
    JsonObject l = p.getJsonObject("latencyMs");
    return String.format(Locale.ROOT, "%d pings, p50 %s ms p99 %s ms max %s ms, %d errors%s", l.getLong("count", 0L),
        ms(l, "p50"), ms(l, "p99"), ms(l, "max"), p.getLong("errors"),
        p.getLong("errors") > 0 ? " " + p.getJsonObject("errorsByLabel").encode() : "");
  }

  private static String streamPart(JsonObject sess) {
    JsonObject s = sess.getJsonObject("streamOpenMs");
    return s == null || s.getLong("count", 0L) == 0 ? ""
        : " (of which GET stream p50 " + ms(s, "p50") + " ms p99 " + ms(s, "p99") + " ms)";
  }

  static String ms(JsonObject o, String key) {
    if (o == null || o.getValue(key) == null) {
      return "-";
    }
    double v = o.getDouble(key);
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  static String mb(Double bytes) {
    return bytes == null ? "?" : String.format(Locale.ROOT, "%.0f", bytes / 1048576.0);
  }
}
