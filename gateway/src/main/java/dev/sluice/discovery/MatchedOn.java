package dev.sluice.discovery;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Why an entry matched (spec 001's {@code matchedOn}): the first stored field that shares a query
 * word, which also picks the snippet; {@link #MEANING} when only the dense lane found it and no
 * field shares a word.
 */
final class MatchedOn {

  /** matchedOn of an entry only the dense lane found and that shares no word with the query. */
  static final String MEANING = "meaning";

  private MatchedOn() {}

  static String of(DiscoveryEntry e, Set<Lane> lanes, Set<String> queryTerms) {
    return lanes.equals(EnumSet.of(Lane.DENSE)) && !sharesAny(e, queryTerms) ? MEANING : field(e, queryTerms);
  }

  /** The first stored field, in the order name, description/comment, sample value, body, that shares a term. */
  static String field(DiscoveryEntry e, Set<String> queryTerms) {
    if (shares(Identifiers.words(e.name()), queryTerms) || shares(Identifiers.words(e.tableName()), queryTerms)
        || shares(Identifiers.words(String.join(" ", e.columnNames())), queryTerms)) {
      return "name";
    }
    if (shares(e.description(), queryTerms)) {
      return e.describedBy();
    }
    for (String s : e.samples()) {
      if (shares(s, queryTerms)) {
        return "sample_value";
      }
    }
    if (shares(e.body(), queryTerms)) {
      return "body";
    }
    return "name";
  }

  private static boolean sharesAny(DiscoveryEntry e, Set<String> queryTerms) {
    return shares(Identifiers.words(e.name()), queryTerms) || shares(Identifiers.words(e.tableName()), queryTerms)
        || shares(Identifiers.words(String.join(" ", e.columnNames())), queryTerms)
        || shares(e.description(), queryTerms) || e.samples().stream().anyMatch(x -> shares(x, queryTerms))
        || shares(e.body(), queryTerms);
  }

  static boolean shares(String text, Set<String> queryTerms) {
    if (text == null || text.isBlank()) {
      return false;
    }
    for (String t : Analyzers.terms(Analyzers.LEXICAL, "x", text.toLowerCase(Locale.ROOT))) {
      if (queryTerms.contains(t)) {
        return true;
      }
    }
    return false;
  }
}
