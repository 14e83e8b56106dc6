package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Gateway-to-direct ratios for runs at the same agent count. */
final class Comparison {

  private Comparison() {}

  /**
   * Gateway-to-direct ratios for each gateway run and the direct run at equal agents of the same
   * round, every pair listed. With one pair per agent count, the last pair's; with several (rounds),
   * the ratio of the means of each side, so one fast or slow run of the direct client does not make
   * the figure alone. Null if there is no pair.
   */
  static JsonObject of(JsonArray runs) {
    JsonArray pairs = new JsonArray();
    for (int i = 0; i < runs.size(); i++) {
      JsonObject g = runs.getJsonObject(i);
      if (!"gateway".equals(g.getString("mode"))) {
        continue;
      }
      for (int j = 0; j < runs.size(); j++) {
        JsonObject d = runs.getJsonObject(j);
        if ("direct".equals(d.getString("mode")) && d.getInteger("agents").equals(g.getInteger("agents"))
            && d.getInteger("round", 1).equals(g.getInteger("round", 1))) {
          pairs.add(pair(g, d));
        }
      }
    }
    if (pairs.isEmpty()) {
      return null;
    }
    JsonObject last = pairs.getJsonObject(pairs.size() - 1);
    JsonArray same = new JsonArray();
    for (int i = 0; i < pairs.size(); i++) {
      if (pairs.getJsonObject(i).getInteger("agents").equals(last.getInteger("agents"))) {
        same.add(pairs.getJsonObject(i));
      }
    }
    JsonObject out = same.size() == 1 ? last.copy() : means(same);
    return out.put("pairs", pairs).put("rounds", same.size());
  }

  /** The mean of each side's throughput and latencies over {@code pairs}, and their ratios. */
  private static JsonObject means(JsonArray pairs) {
    JsonObject m = new JsonObject().put("agents", pairs.getJsonObject(0).getInteger("agents"));
    for (String key : new String[] {"gatewayThroughput", "directThroughput", "gatewayP50", "directP50", "gatewayP99",
        "directP99"}) {
      double sum = 0;
      for (int i = 0; i < pairs.size(); i++) {
        sum += pairs.getJsonObject(i).getDouble(key);
      }
      m.put(key, sum / pairs.size());
    }
    return m.put("throughputRatio", ratio(m.getDouble("gatewayThroughput"), m.getDouble("directThroughput")))
        .put("p50Ratio", ratio(m.getDouble("gatewayP50"), m.getDouble("directP50")))
        .put("p99Ratio", ratio(m.getDouble("gatewayP99"), m.getDouble("directP99")));
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
