package dev.sluice.ingest;

/** Splits an optional leading {@code ---} YAML block from markdown. */
record Frontmatter(String yaml, String body) {

  static Frontmatter split(String content) {
    String text = content.replace("\r\n", "\n");
    if (text.startsWith("---\n")) {
      int end = text.indexOf("\n---", 4);
      if (end > 0) {
        int after = text.indexOf('\n', end + 4);
        return new Frontmatter(text.substring(4, end), after < 0 ? "" : text.substring(after + 1));
      }
    }
    return new Frontmatter(null, text);
  }
}
