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
  private int lanesWithResults;

  void add(Lane lane, List<Integer> ranked) {
    if (!ranked.isEmpty()) {
      lanesWithResults++;
    }
    for (int r = 0; r < ranked.size(); r++) {
      scores.merge(ranked.get(r), 1.0 / (K + r + 1), Double::sum);
      lanes.computeIfAbsent(ranked.get(r), x -> EnumSet.noneOf(Lane.class)).add(lane);
    }
  }

  /**
   * The best {@code limit} entries, ties broken by entry order (stable across calls), each score
   * divided by the best possible one (first in every lane that found anything), so 1.0 means
   * every lane that matched put it first.
   */
  List<Fused> top(int limit) {
    double best = Math.max(1, lanesWithResults) / (double) (K + 1);
    List<Map.Entry<Integer, Double>> all = new ArrayList<>(scores.entrySet());
    all.sort(Map.Entry.<Integer, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<Fused> out = new ArrayList<>();
    for (Map.Entry<Integer, Double> e : all.subList(0, Math.min(limit, all.size()))) {
      out.add(new Fused(e.getKey(), Math.min(1.0, e.getValue() / best), lanes.get(e.getKey())));
    }
    return out;
  }
}
