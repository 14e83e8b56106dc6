package dev.sluice.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/** Ranks live schema names by case-insensitive edit distance to a name the engine did not find. */
public final class NameSuggester {

  public static final int MAX_SUGGESTIONS = 3;

  private NameSuggester() {}

  /** Up to three names close enough to be a typo of {@code missing}, nearest first. */
  public static List<String> similar(String missing, Iterable<String> candidates) {
    String target = missing.toLowerCase(Locale.ROOT);
    // A third of the name, at least 2: catches dropped/swapped letters without offering noise.
    int budget = Math.max(2, target.length() / 3);
    record Scored(String name, int distance) {}
    List<Scored> scored = new ArrayList<>();
    for (String c : new LinkedHashSet<>(toList(candidates))) {
      int d = distance(target, c.toLowerCase(Locale.ROOT), budget);
      if (d <= budget && d > 0 || d == 0 && !c.equals(missing)) {
        scored.add(new Scored(c, d));
      }
    }
    scored.sort(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name));
    return scored.stream().limit(MAX_SUGGESTIONS).map(Scored::name).toList();
  }

  private static List<String> toList(Iterable<String> it) {
    List<String> out = new ArrayList<>();
    it.forEach(out::add);
    return out;
  }

  /** Levenshtein distance (no transpositions), or more than {@code budget} once it exceeds it. */
  static int distance(String a, String b, int budget) {
    return EditDistance.between(a, b, budget, false);
  }
}
