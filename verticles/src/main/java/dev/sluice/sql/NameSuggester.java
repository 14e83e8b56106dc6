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
      int d = distance(target, c.toLowerCase(Locale.ROOT));
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

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
