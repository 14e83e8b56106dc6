package dev.sluice.discovery;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reciprocal Rank Fusion with equal lane weights (spec 001): an entry scores the sum over lanes
 * of 1 / (k + rank). Ranks, not scores, are fused, so BM25's unbounded scores and cosine
 * similarities never need calibrating against each other.
 */
final class Rrf {

  /** RRF's constant: damps the head so agreement between lanes beats one lane's top rank. */
  static final int K = 60;

  record Fused(int ord, double score, Set<Lane> lanes) {}

  private final Map<Integer, Double> scores = new HashMap<>();
  private final Map<Integer, Set<Lane>> lanes = new HashMap<>();
  /** Per entry its rank in each lane ({@link Lane} order), for breaking ties. */
  private final Map<Integer, int[]> ranks = new HashMap<>();
  private int lanesWithResults;

  void add(Lane lane, List<Integer> ranked) {
    if (!ranked.isEmpty()) {
      lanesWithResults++;
    }
    for (int r = 0; r < ranked.size(); r++) {
      scores.merge(ranked.get(r), 1.0 / (K + r + 1), Double::sum);
      lanes.computeIfAbsent(ranked.get(r), x -> EnumSet.noneOf(Lane.class)).add(lane);
      int[] byLane = ranks.computeIfAbsent(ranked.get(r), x -> unranked());
      byLane[lane.ordinal()] = Math.min(byLane[lane.ordinal()], r);
    }
  }

  private static int[] unranked() {
    int[] r = new int[Lane.values().length];
    java.util.Arrays.fill(r, Integer.MAX_VALUE);
    return r;
  }

  /**
   * The best {@code limit} entries, each score divided by the best possible one (first in every
   * lane that found anything), so 1.0 means every lane that matched put it first. A tie (one
   * entry first in one lane and second in another, its rival the other way round) goes to the
   * entry the lanes that read the query literally rank higher, lexical, then typo: an agent that
   * typed "revenue" means the measure named revenue more surely than the model's nearest
   * neighbour, line_revenue. Then entry order, so the list is stable across calls.
   */
  List<Fused> top(int limit) {
    double best = Math.max(1, lanesWithResults) / (double) (K + 1);
    List<Map.Entry<Integer, Double>> all = new ArrayList<>(scores.entrySet());
    java.util.Comparator<Map.Entry<Integer, Double>> literalFirst = (a, b) -> {
      int[] ra = ranks.get(a.getKey());
      int[] rb = ranks.get(b.getKey());
      for (int l = 0; l < ra.length; l++) {
        if (ra[l] != rb[l]) {
          return Integer.compare(ra[l], rb[l]);
        }
      }
      return 0;
    };
    all.sort(Map.Entry.<Integer, Double>comparingByValue().reversed().thenComparing(literalFirst)
        .thenComparing(Map.Entry.comparingByKey()));
    List<Fused> out = new ArrayList<>();
    for (Map.Entry<Integer, Double> e : all.subList(0, Math.min(limit, all.size()))) {
      out.add(new Fused(e.getKey(), Math.min(1.0, e.getValue() / best), lanes.get(e.getKey())));
    }
    return out;
  }
}
