package dev.sluice.discovery;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.semantic.SemanticSource;
import dev.sluice.wiki.WikiPage;
import java.util.ArrayList;
import java.util.List;

/**
 * The text the dense lane embeds for each kind of entry: names split into words (the model knows
 * "annual base", not "annual_base"), then the comment, then the parts (columns, measures) and a
 * few sampled values. Most telling first, because the model reads at most 128 word pieces. Capped
 * at {@link #MAX_CHARS} before any work, whatever the catalog holds.
 */
final class MeaningTexts {

  static final int MAX_CHARS = 600;
  /** Sampled values per column: a few show what a column holds; more would drown its name. */
  static final int SAMPLES = 3;
  /** Columns named in a table's text, each with its comment when it has one. */
  static final int COLUMNS = 24;

  private MeaningTexts() {}

  static String table(CatalogTable t) {
    StringBuilder b = new StringBuilder(spelled(t.ref().name()));
    if (t.ref().db() != null && !"main".equals(t.ref().db())) {
      b.append(" (").append(spelled(t.ref().db())).append(')');
    }
    sentence(b, t.comment());
    List<String> cols = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (CatalogColumn c : t.columns()) {
      if (cols.size() < COLUMNS) {
        cols.add(spelled(c.name()) + (blank(c.comment()) ? "" : " (" + c.comment().strip() + ")"));
      }
      if (!c.primaryKey() && !c.sampleValues().isEmpty() && values.size() < SAMPLES * 2) {
        values.add(c.sampleValues().get(0));
      }
    }
    if (!cols.isEmpty()) {
      b.append(". Columns: ").append(String.join(", ", cols));
    }
    if (!values.isEmpty()) {
      b.append(". Values: ").append(String.join(", ", values));
    }
    return cap(b);
  }

  static String column(CatalogTable t, CatalogColumn c) {
    if (isKey(c)) {
      return "";
    }
    StringBuilder b = new StringBuilder(spelled(c.name())).append(" of ")
        .append(spelled(t.ref().name()));
    sentence(b, c.comment());
    if (!blank(t.comment())) {
      b.append(". In: ").append(t.comment().strip());
    }
    if (!c.sampleValues().isEmpty()) {
      b.append(". Values: ").append(String.join(", ", c.sampleValues().subList(0,
          Math.min(SAMPLES, c.sampleValues().size()))));
    }
    return cap(b);
  }

  static String page(WikiPage p) {
    StringBuilder b = new StringBuilder(p.title());
    sentence(b, p.summary());
    sentence(b, p.body());
    return cap(b);
  }

  static String source(SemanticSource s) {
    StringBuilder b = new StringBuilder(spelled(s.name()));
    sentence(b, s.description());
    if (!s.measures().isEmpty()) {
      b.append(". Measures: ").append(String.join(", ", s.measures().keySet().stream().map(Identifiers::words).toList()));
    }
    if (!s.dimensions().isEmpty()) {
      b.append(". Dimensions: ")
          .append(String.join(", ", s.dimensions().keySet().stream().map(Identifiers::words).toList()));
    }
    return cap(b);
  }

  static String measure(SemanticSource s, SemanticSource.Measure m) {
    StringBuilder b = new StringBuilder(spelled(m.name())).append(" of ").append(spelled(s.name()));
    sentence(b, m.description());
    sentence(b, s.description());
    return cap(b);
  }

  static String dimension(SemanticSource s, SemanticSource.Dimension d) {
    StringBuilder b = new StringBuilder(spelled(d.name())).append(" of ").append(spelled(s.name()));
    sentence(b, d.description());
    sentence(b, s.description());
    return cap(b);
  }

  /** Appends a stored text, cut to the cap first: a wiki page can be long. */
  private static void sentence(StringBuilder b, String text) {
    if (!blank(text)) {
      String t = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
      b.append(b.indexOf(":") < 0 ? ": " : ". ").append(t.strip());
    }
  }

  /** An identifier as words, short forms spelled out ({@link Abbreviations}). */
  private static String spelled(String identifier) {
    return Abbreviations.expand(Identifiers.words(identifier));
  }

  /**
   * A key column (the primary key, or a name of one word and id, as pat_id) says which row, not
   * what a question is about: its text would only repeat its table's, so it gets no vector of its
   * own. A reference named for a role (owner_user_id, manager_emp_id) says who is who: it keeps
   * its vector.
   */
  static boolean isKey(CatalogColumn c) {
    String words = Identifiers.words(c.name());
    return c.primaryKey() || words.equals("id") || words.endsWith(" id") && words.indexOf(' ') == words.lastIndexOf(' ');
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  private static String cap(StringBuilder b) {
    String s = b.toString().replaceAll("\\s+", " ");
    return s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS);
  }
}
