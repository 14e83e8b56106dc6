package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Gateway-to-direct ratios for runs at the same agent count. */
final class Comparison {

  private Comparison() {}

  /** Ratios of the last gateway/direct pair at equal agents, with every pair listed; null if none. */
  static JsonObject of(JsonArray runs) {
    JsonArray pairs = new JsonArray();
    for (int i = 0; i < runs.size(); i++) {
      JsonObject g = runs.getJsonObject(i);
      if (!"gateway".equals(g.getString("mode"))) {
        continue;
      }
      for (int j = 0; j < runs.size(); j++) {
        JsonObject d = runs.getJsonObject(j);
        if ("direct".equals(d.getString("mode")) && d.getInteger("agents").equals(g.getInteger("agents"))) {
          pairs.add(pair(g, d));
        }
      }
    }
    if (pairs.isEmpty()) {
      return null;
    }
    return pairs.getJsonObject(pairs.size() - 1).copy().put("pairs", pairs);
  }

  private static JsonObject pair(JsonObject g, JsonObject d) {
    return new JsonObject().put("agents", g.getInteger("agents"))
        .put("gatewayThroughput", g.getDouble("throughput")).put("directThroughput", d.getDouble("throughput"))
        .put("throughputRatio", ratio(g.getDouble("throughput"), d.getDouble("throughput")))
        .put("gatewayP50", lat(g, "p50")).put("directP50", lat(d, "p50"))
        .put("p50Ratio", ratio(lat(g, "p50"), lat(d, "p50")))
        .put("gatewayP99", lat(g, "p99")).put("directP99", lat(d, "p99"))
        .put("p99Ratio", ratio(lat(g, "p99"), lat(d, "p99")));
  }

  private static Double lat(JsonObject run, String p) {
    Double v = run.getJsonObject("latencyMs").getDouble(p);
    return v == null ? 0.0 : v;
  }

  private static double ratio(Double a, Double b) {
    return a == null || b == null || b == 0 ? 0 : Math.round(a / b * 100) / 100.0;
  }
}
