package dev.sluice.ingest;

import dev.sluice.wiki.WikiKeys;
import java.util.Locale;

/**
 * The page key of ingested content, derived deterministically: the slug of its leading markdown
 * heading, or of its first sentence when it has none. A heading that tries to name a path (a
 * separator or "..") is refused rather than silently slugged.
 */
final class PageKeys {

  static final int MAX_SLUG = 80;

  private PageKeys() {}

  static String of(String content) {
    String body = Frontmatter.split(content).body();
    String heading = heading(body);
    String source = heading != null ? heading : firstSentence(body);
    if (heading != null && (heading.contains("/") || heading.contains("\\") || heading.contains(".."))) {
      throw IngestInput.reject("unsafe_key", "the heading '" + heading + "' would name a path; page keys are "
          + "plain words (letters, digits, '-'): rewrite the heading");
    }
    String key = slug(source);
    if (key.isEmpty() || !WikiKeys.valid(key)) {
      throw IngestInput.reject("no_key", "cannot derive a page key: start the content with a '# Heading' made of "
          + "words");
    }
    return key;
  }

  /** The text of the first markdown heading, if the content starts with one (blank lines skipped). */
  static String heading(String body) {
    for (String line : body.split("\n")) {
      String t = line.strip();
      if (t.isEmpty()) {
        continue;
      }
      if (t.startsWith("#")) {
        String h = t.replaceFirst("^#+\\s*", "").strip();
        return h.isEmpty() ? null : h;
      }
      return null;
    }
    return null;
  }

  static String firstSentence(String body) {
    String text = body.strip().replaceAll("\\s+", " ");
    int end = text.length();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c == '.' || c == '!' || c == '?') && (i + 1 == text.length() || text.charAt(i + 1) == ' ')) {
        end = i;
        break;
      }
    }
    return text.substring(0, end).strip();
  }

  static String slug(String text) {
    StringBuilder b = new StringBuilder();
    for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
      if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
        b.append(c);
      } else if (b.length() > 0 && b.charAt(b.length() - 1) != '-') {
        b.append('-');
      }
      if (b.length() >= MAX_SLUG) {
        break;
      }
    }
    int end = b.length();
    while (end > 0 && b.charAt(end - 1) == '-') {
      end--;
    }
    return b.substring(0, end);
  }
}
