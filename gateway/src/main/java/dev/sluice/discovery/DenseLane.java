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
   * Below this similarity a dense neighbour is noise rather than a match: unrelated short texts
   * score about 0 to 0.2 (read on the {@link SimilarityScale} all floors and margins here are on).
   * Without a floor every query, even gibberish, would get a full list of "matches" from this lane.
   */
  static final float MIN_SIMILARITY = 0.25f;
  /** How far above its closest column a table is put (or below, when the column wins). */
  static final float PARENT_MARGIN = 0.001f;
  /**
   * A column stays above its table when the query is this much closer to it than to the table's
   * own text, and {@link #COLUMN_OVER_SIBLING} closer than to the table's next column: the query
   * names that attribute ("patients' date of birth"), not what the table holds in general. Set on
   * the 96 frozen questions (docs/performance.md); 0.05 to 0.1 for either ranks alike.
   */
  static final float COLUMN_OVER_TABLE = 0.10f;
  static final float COLUMN_OVER_SIBLING = 0.05f;
  /**
   * A table scores the soft maximum (log-sum-exp at this temperature) of its {@link #GROUP_TEXTS}
   * closest texts, its own and its columns': a table two or three of whose texts are near the
   * query is more likely what it asks for than a table with one near column, often a generic one
   * ("email of employees") that only repeats which table it is. At most {@code GROUP_SOFTNESS *
   * ln 3} (0.055) above its best text. Swept 0.03 to 0.08 with 2 to 6 texts on the 280 seen
   * questions (docs/performance.md).
   */
  static final float GROUP_SOFTNESS = 0.05f;
  static final int GROUP_TEXTS = 3;
  /**
   * Entries further than this below the lane's best are left out of the fusion: they are much
   * weaker matches than the head, and in RRF every ranked entry counts.
   */
  static final float BELOW_BEST = 0.15f;

  private final int dimension;
  private final SimilarityScale scale;
  private final float[] matrix;
  private final boolean[] present;
  /** For a column, the ordinal of its table's entry; -1 for everything else. */
  private final int[] parent;

  /**
   * @param parent for each entry the ordinal of the entry it belongs to (a column's table), or -1
   * @param scale how the model's cosines are read by the floors and margins below
   */
  DenseLane(float[][] vectors, int dimension, int[] parent, SimilarityScale scale) {
    this.dimension = dimension;
    this.scale = scale;
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
   * One ranking of the lane.
   *
   * @param ords entry ordinals, best first
   * @param columnsOverTables columns this query names so much more closely than their table (and
   *     the table's other columns) that they rank above it
   */
  record Ranking(List<Integer> ords, java.util.Set<Integer> columnsOverTables) {}

  /**
   * Entries closest first, at most {@code depth}, among those {@code allowed} accepts. A table
   * scores at least as high as its closest column (just above it): a question about what a table
   * holds is often closest to one of its columns' texts, and the table is the better answer than a
   * list of its columns. Unless that column stands out ({@link #COLUMN_OVER_TABLE}): then the
   * table comes right after it.
   */
  Ranking rank(float[] query, IntPredicate allowed, int depth) {
    if (query.length != dimension) {
      throw new IllegalArgumentException("query vector has " + query.length + " dimensions, the lane " + dimension);
    }
    int n = present.length;
    float[] score = new float[n];
    boolean[] ok = new boolean[n];
    java.util.Arrays.fill(score, Float.NEGATIVE_INFINITY);
    for (int i = 0; i < n; i++) {
      ok[i] = allowed.test(i);
      if (present[i] && (ok[i] || parent[i] >= 0)) {
        score[i] = scale.read(Vectors.dot(query, matrix, i));
      }
    }
    // per table: its closest column and the scores of the next two
    int[] best = new int[n];
    float[] second = new float[n];
    float[] third = new float[n];
    java.util.Arrays.fill(best, -1);
    java.util.Arrays.fill(second, Float.NEGATIVE_INFINITY);
    java.util.Arrays.fill(third, Float.NEGATIVE_INFINITY);
    for (int i = 0; i < n; i++) {
      int p = parent[i];
      if (p >= 0 && present[i]) {
        float s = score[i];
        if (best[p] < 0 || s > score[best[p]]) {
          if (best[p] >= 0) {
            third[p] = second[p];
            second[p] = score[best[p]];
          }
          best[p] = i;
        } else if (s > second[p]) {
          third[p] = second[p];
          second[p] = s;
        } else if (s > third[p]) {
          third[p] = s;
        }
      }
    }
    java.util.Set<Integer> over = new java.util.HashSet<>();
    for (int p = 0; p < n; p++) {
      int c = best[p];
      if (c < 0) {
        continue;
      }
      float own = score[p];
      if (score[c] - own > COLUMN_OVER_TABLE && score[c] - second[p] > COLUMN_OVER_SIBLING) {
        over.add(c);
        score[p] = Math.max(own, score[c] - PARENT_MARGIN);
      } else {
        score[p] = Math.max(own, Math.max(score[c] + PARENT_MARGIN, softMax(own, score[c], second[p], third[p])));
      }
    }
    PriorityQueue<Scored> top = new PriorityQueue<>((a, b) -> Float.compare(a.score(), b.score()));
    for (int i = 0; i < n; i++) {
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
    return new Ranking(sorted.stream().filter(x -> x.score() >= head - BELOW_BEST).map(Scored::ord).toList(), over);
  }

  /**
   * The soft maximum of the {@link #GROUP_TEXTS} highest of a table's own score and its three
   * closest columns' (negative infinity for one that is not there).
   */
  static float softMax(float own, float first, float second, float third) {
    float[] top = {own, first, second, third};
    java.util.Arrays.sort(top);
    float max = top[3];
    double sum = 0;
    for (int i = 3; i > 3 - GROUP_TEXTS; i--) {
      if (top[i] != Float.NEGATIVE_INFINITY) {
        sum += Math.exp((top[i] - max) / GROUP_SOFTNESS);
      }
    }
    return (float) (max + GROUP_SOFTNESS * Math.log(sum));
  }
}
