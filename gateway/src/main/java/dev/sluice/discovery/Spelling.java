package dev.sluice.discovery;

import dev.sluice.sql.EditDistance;
import java.util.Collection;

/**
 * The catalog word a misspelt query word most likely meant, for the dense lane: the model reads
 * "custmer emial" as noise and "customer email" as a column. Only the catalog's own name words
 * are candidates: corrected towards English at large, real words the model's vocabulary lacks
 * went wrong ("lorry" to "larry", "sellable" to "syllable", "learner" to "learned", measured on the
 * 189 seen questions). Edits allowed as in the typo lane (none under 4 letters, 1 up to 7, 2 from
 * 8), a transposition counting as one.
 */
final class Spelling {

  private Spelling() {}

  /** The correction of {@code word}, or {@code word} itself when no catalog word is close enough. */
  static String corrected(String word, Collection<String> catalogWords) {
    if (word.length() < 4) {
      return word;
    }
    int max = word.length() >= 8 ? 2 : 1;
    String best = null;
    int bestDistance = max + 1;
    for (String w : catalogWords) {
      if (Math.abs(w.length() - word.length()) > max) {
        continue;
      }
      int d = distance(word, w, max);
      // nearer wins; at the same distance the alphabetically first, so the answer never depends
      // on a set's iteration order
      if (d < bestDistance || d <= max && d == bestDistance && w.compareTo(best) < 0) {
        best = w;
        bestDistance = d;
      }
    }
    return best == null ? word : best;
  }

  /**
   * Optimal string alignment distance (Levenshtein plus adjacent transpositions), or
   * {@code max + 1} as soon as it must exceed {@code max}.
   */
  static int distance(String a, String b, int max) {
    return EditDistance.between(a, b, max, true);
  }
}
