package dev.sluice.sql.analysis;

import java.util.List;

/**
 * The code tokens of a text, and the first lexical problem found in it (null when none).
 *
 * @param text the text that was lexed
 * @param tokens its code tokens in order; comments and white space are not tokens
 * @param problem the first problem: {@code control_character}, {@code unterminated},
 *     {@code executable_comment}, {@code optimizer_hint}, {@code unparseable}
 */
public record Lexed(String text, List<Token> tokens, Problem problem) {

  /** What the lexer could not read the way every engine does, and where. */
  public record Problem(String rule, String message, int offset) {}

  /** Indexes (into {@link #tokens}) of the {@code ;} tokens. */
  public List<Integer> semicolons() {
    java.util.ArrayList<Integer> out = new java.util.ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).isSymbol(';')) {
        out.add(i);
      }
    }
    return out;
  }
}
