package dev.sluice.sql.analysis;

import java.util.List;

/**
 * The statement re-spelled for JSqlParser in one canonical form, so that the parser reads the same
 * names and strings the engine does: identifiers as {@code "decoded"}, strings as
 * {@code 'decoded'} (E'', U&amp;'', dollar quotes and MySQL backslash escapes resolved), comments
 * dropped. Keeps where each token came from, to report a parse error at the agent's character.
 */
final class ParserText {

  final String text;
  private final int[] normStart;
  private final int[] origStart;

  private ParserText(String text, int[] normStart, int[] origStart) {
    this.text = text;
    this.normStart = normStart;
    this.origStart = origStart;
  }

  static ParserText of(SqlDialect dialect, List<Token> tokens) {
    StringBuilder b = new StringBuilder();
    int[] norm = new int[tokens.size()];
    int[] orig = new int[tokens.size()];
    for (int i = 0; i < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (i > 0 && tokens.get(i - 1).end() < t.start()) {
        b.append(' ');
      }
      norm[i] = b.length();
      orig[i] = t.start();
      switch (t.kind()) {
        case IDENTIFIER -> b.append('"').append(t.value().replace("\"", "\"\"")).append('"');
        case STRING -> b.append('\'').append(t.value().replace("'", "''")).append('\'');
        case WORD -> {
          String alt = dialect.parserWord(t);
          b.append(alt != null ? alt : t.text());
        }
        default -> b.append(t.text());
      }
    }
    return new ParserText(b.toString(), norm, orig);
  }

  /** The 0-based offset in the agent's text of a 1-based line and column in {@link #text}. */
  int originalOffset(int line, int column) {
    int pos = 0;
    for (int l = 1; l < line; l++) {
      int nl = text.indexOf('\n', pos);
      if (nl < 0) {
        break;
      }
      pos = nl + 1;
    }
    int at = pos + Math.max(0, column - 1);
    int k = 0;
    for (int i = 0; i < normStart.length; i++) {
      if (normStart[i] <= at) {
        k = i;
      }
    }
    // the token the parser stopped at, as the agent wrote it
    return normStart.length == 0 ? 0 : origStart[k];
  }
}
