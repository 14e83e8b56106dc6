package dev.sluice.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;

/**
 * The dense lane: every entry's meaning vector in one row-major array, searched exhaustively (a
 * dot product per entry, exact, no index to tune or rebuild). Rows are floats: signed bytes (as the
 * cache stores them) would take a quarter of the memory, but the scan measured 1.1 to 2.5 times
 * slower (byte-to-float conversion in the inner loop), and the scan is the query's main cost.
 * Entries without a vector (not embedded yet) are skipped. Immutable.
 */
final class DenseLane {

  /**
   * Below this cosine a dense neighbour is noise rather than a match: all-MiniLM-L6-v2 gives
   * unrelated short texts about 0 to 0.2. Without a floor every query, even gibberish, would get a
   * full list of "matches" from this lane.
   */
  static final float MIN_SIMILARITY = 0.25f;
  /** How far above its closest column a table is put. */
  static final float PARENT_MARGIN = 0.001f;
  /**
   * Entries further than this below the lane's best are left out of the fusion: they are much
   * weaker matches than the head, and in RRF every ranked entry counts.
   */
  static final float BELOW_BEST = 0.15f;

  private final int dimension;
  private final float[] matrix;
  private final boolean[] present;
  /** For a column, the ordinal of its table's entry; -1 for everything else. */
  private final int[] parent;

  /**
   * @param parent for each entry the ordinal of the entry it belongs to (a column's table), or -1
   */
  DenseLane(float[][] vectors, int dimension, int[] parent) {
    this.dimension = dimension;
    this.parent = parent;
    this.matrix = new float[vectors.length * dimension];
    this.present = new boolean[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      if (vectors[i] != null) {
        System.arraycopy(vectors[i], 0, matrix, i * dimension, dimension);
        present[i] = true;
      }
    }
  }

  int embedded() {
    int n = 0;
    for (boolean p : present) {
      n += p ? 1 : 0;
    }
    return n;
  }

  private record Scored(int ord, float score) {}

  /**
   * Entry ordinals, closest first, at most {@code depth}, among those {@code allowed} accepts. A
   * table scores at least as high as its closest column (just above it): a question about what a
   * table holds is often closest to one of its columns' texts, and the table is the better answer
   * than a list of its columns.
   */
  List<Integer> rank(float[] query, IntPredicate allowed, int depth) {
    if (query.length != dimension) {
      throw new IllegalArgumentException("query vector has " + query.length + " dimensions, the lane " + dimension);
    }
    float[] score = new float[present.length];
    boolean[] ok = new boolean[present.length];
    java.util.Arrays.fill(score, Float.NEGATIVE_INFINITY);
    for (int i = 0; i < present.length; i++) {
      ok[i] = allowed.test(i);
      if (present[i] && (ok[i] || parent[i] >= 0)) {
        score[i] = Vectors.dot(query, matrix, i);
      }
    }
    for (int i = 0; i < present.length; i++) {
      int p = parent[i];
      if (p >= 0 && present[i] && score[i] + PARENT_MARGIN > score[p]) {
        score[p] = score[i] + PARENT_MARGIN;
      }
    }
    PriorityQueue<Scored> top = new PriorityQueue<>((a, b) -> Float.compare(a.score(), b.score()));
    for (int i = 0; i < score.length; i++) {
      float s = score[i];
      if (s < MIN_SIMILARITY || !ok[i]) {
        continue;
      }
      if (top.size() < depth) {
        top.add(new Scored(i, s));
      } else if (s > top.peek().score()) {
        top.poll();
        top.add(new Scored(i, s));
      }
    }
    List<Scored> sorted = new ArrayList<>(top);
    sorted.sort((a, b) -> a.score() != b.score() ? Float.compare(b.score(), a.score()) : Integer.compare(a.ord(), b.ord()));
    float head = sorted.isEmpty() ? 0 : sorted.get(0).score();
    return sorted.stream().filter(x -> x.score() >= head - BELOW_BEST).map(Scored::ord).toList();
  }
}
