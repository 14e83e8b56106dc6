package dev.sluice.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The snippet of a discovery hit: always a slice of one stored field, at most 200 characters,
 * chosen by kind and by the field that matched; null when that field is empty.
 */
final class Snippets {

  static final int MAX = 200;
  private static final int LEAD = 60;

  private Snippets() {}

  static String of(DiscoveryEntry e, String matchedOn, Set<String> queryTerms, String query) {
    return switch (e.kind()) {
      case "wiki" -> "body".equals(matchedOn) ? window(e.body(), query) : head(e.body());
      case "sl_measure", "sl_dimension" -> "description".equals(matchedOn) && e.description() != null
          ? head(e.description()) : head(e.nativeType());
      case "sl_source" -> "description".equals(matchedOn) ? window(e.description(), query)
          : head(String.join(", ", e.columnNames().subList(0, Math.min(5, e.columnNames().size()))));
      // found by meaning alone: the comment, never the column list, whose names a table policy may
      // hide (DiscoverDataTool re-filters the list only for matchedOn "name")
      case "table" -> MatchedOn.MEANING.equals(matchedOn) ? head(e.description())
          : "comment".equals(matchedOn) ? window(e.description(), query)
          : e.columnNames().isEmpty() ? null : head(String.join(", ", e.columnNames().subList(0,
              Math.min(5, e.columnNames().size()))));
      default -> switch (matchedOn) {
        case "comment" -> head(e.description());
        case "sample_value" -> head(e.nativeType() + " · samples: " + String.join(", ", samples(e, queryTerms)));
        default -> head(e.nativeType());
      };
    };
  }

  /** Up to five sample values, the ones sharing a query term first. */
  private static List<String> samples(DiscoveryEntry e, Set<String> queryTerms) {
    List<String> first = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String s : e.samples()) {
      (MatchedOn.shares(s, queryTerms) ? first : rest).add(s);
    }
    first.addAll(rest);
    return first.subList(0, Math.min(5, first.size()));
  }

  static String head(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String t = text.strip();
    return t.length() <= MAX ? t : t.substring(0, MAX);
  }

  /** 200 characters of {@code text} starting a little before the first query word found in it. */
  static String window(String text, String query) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    int at = -1;
    for (String word : Identifiers.words(query).split(" ")) {
      if (word.length() < 3 || Analyzers.STOP_WORDS.contains(word)) {
        continue;
      }
      // a stem-length prefix also finds "orders" for "order" and "shipping" for "shipped"
      String probe = word.length() > 5 ? word.substring(0, word.length() - 2) : word;
      int i = lower.indexOf(probe);
      if (i >= 0 && (at < 0 || i < at)) {
        at = i;
      }
    }
    int start = at <= LEAD ? 0 : at - LEAD;
    String t = text.substring(start).strip();
    return t.length() <= MAX ? t : t.substring(0, MAX);
  }
}
