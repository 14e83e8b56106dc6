package dev.sluice.loadtest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Weighted choice among scenarios, parsed from {@code tiny=70,medium=10,...}. */
public final class Mix {

  private final List<Scenario> scenarios = new ArrayList<>();
  private final int[] cumulative;
  private final int total;

  /** A mix with these positive weights, in iteration order. */
  public Mix(Map<Scenario, Integer> weights) {
    cumulative = new int[weights.size()];
    int sum = 0;
    int i = 0;
    for (Map.Entry<Scenario, Integer> e : weights.entrySet()) {
      sum += e.getValue();
      scenarios.add(e.getKey());
      cumulative[i++] = sum;
    }
    if (sum <= 0) {
      throw new IllegalArgumentException("mix has no positive weight");
    }
    total = sum;
  }

  /** Parses {@code name=weight,...} against {@code catalog}. */
  public static Mix parse(String spec, Map<String, Scenario> catalog) {
    Map<Scenario, Integer> weights = new LinkedHashMap<>();
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=");
      String name = kv[0].trim();
      // tool:NAME calls any tool with no arguments: for custom or test tools
      Scenario s = name.startsWith("tool:")
          ? new Scenario(name.substring(5), name.substring(5), new io.vertx.core.json.JsonObject(), null, 0, null)
          : catalog.get(name);
      if (s == null) {
        throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + catalog.keySet() + " or tool:NAME");
      }
      int w = kv.length > 1 ? Integer.parseInt(kv[1].trim()) : 1;
      if (w > 0) {
        weights.put(s, w);
      }
    }
    return new Mix(weights);
  }

  /** A scenario drawn with probability proportional to its weight. */
  public Scenario pick() {
    int r = ThreadLocalRandom.current().nextInt(total);
    for (int i = 0; i < cumulative.length; i++) {
      if (r < cumulative[i]) {
        return scenarios.get(i);
      }
    }
    return scenarios.get(scenarios.size() - 1);
  }

  /** The scenarios of this mix, in the order given. */
  public List<Scenario> scenarios() {
    return scenarios;
  }

  /** Keeps only scenarios the direct baseline can run (plain SQL, success expected). */
  public Mix directOnly() {
    Map<Scenario, Integer> weights = new LinkedHashMap<>();
    for (int i = 0; i < scenarios.size(); i++) {
      Scenario s = scenarios.get(i);
      if (s.directSql() != null) {
        weights.put(s, cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]));
      }
    }
    return new Mix(weights);
  }

  /** The mix in {@code name=weight,...} form. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < scenarios.size(); i++) {
      b.append(i == 0 ? "" : ",").append(scenarios.get(i).name()).append('=')
          .append(cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]));
    }
    return b.toString();
  }
}
