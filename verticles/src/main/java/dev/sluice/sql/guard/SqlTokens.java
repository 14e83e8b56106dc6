package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import java.util.ArrayList;
import java.util.List;

/**
 * A lexical pass over SQL text that knows the dialect's literals and comments: string literals
 * (incl. PostgreSQL dollar quotes and MySQL backslash escapes), quoted identifiers, line and block
 * comments (nested in PostgreSQL). It yields the code tokens only, so no check can be fooled by a
 * keyword hidden in a comment or by a comment hidden in a keyword.
 */
final class SqlTokens {

  enum Type { WORD, QUOTED, LITERAL, SYMBOL }

  /** {@code end} is exclusive and includes closing quotes. */
  record Token(Type type, String text, int start, int end) {
    boolean is(String word) {
      return type == Type.WORD && text.equalsIgnoreCase(word);
    }
  }

  final List<Token> tokens = new ArrayList<>();
  /** A MySQL executable comment ({@code /*! ... *}{@code /} or {@code /*M! ... *}{@code /}): code the server runs. */
  boolean executableComment;
  /** A literal or comment that never closes. */
  boolean unterminated;

  static SqlTokens scan(String sql, Dialect dialect) {
    SqlTokens t = new SqlTokens();
    t.run(sql, dialect);
    return t;
  }

  private void run(String s, Dialect d) {
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-' || c == '#' && d == Dialect.MYSQL) {
        while (i < n && s.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        if (i + 2 < n && (s.charAt(i + 2) == '!' || s.charAt(i + 2) == 'M' && i + 3 < n && s.charAt(i + 3) == '!')) {
          executableComment = true;
        }
        i = blockComment(s, i, d == Dialect.POSTGRES);
      } else if (c == '\'') {
        int end = quoted(s, i, '\'', d == Dialect.MYSQL);
        tokens.add(new Token(Type.LITERAL, s.substring(i, end), i, end));
        i = end;
      } else if (c == '"' || c == '`' || c == '[' && d == Dialect.SQLITE) {
        char close = c == '[' ? ']' : c;
        int end = quoted(s, i, close, false);
        // MySQL without ANSI_QUOTES reads "x" as a string; either way it is no keyword
        tokens.add(new Token(Type.QUOTED, s.substring(i + 1, Math.max(i + 1, end - 1)), i, end));
        i = end;
      } else if (c == '$' && d == Dialect.POSTGRES && dollarTag(s, i) != null) {
        String tag = dollarTag(s, i);
        int close = s.indexOf(tag, i + tag.length());
        int end = close < 0 ? n : close + tag.length();
        unterminated |= close < 0;
        tokens.add(new Token(Type.LITERAL, s.substring(i, end), i, end));
        i = end;
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '$')) {
          i++;
        }
        tokens.add(new Token(Type.WORD, s.substring(start, i), start, i));
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.')) {
          i++;
        }
        tokens.add(new Token(Type.LITERAL, s.substring(start, i), start, i));
      } else {
        tokens.add(new Token(Type.SYMBOL, String.valueOf(c), i, i + 1));
        i++;
      }
    }
  }

  private int blockComment(String s, int i, boolean nested) {
    int depth = 0;
    int n = s.length();
    while (i < n) {
      if (s.startsWith("/*", i)) {
        depth = nested || depth == 0 ? depth + 1 : depth;
        i += 2;
      } else if (s.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    unterminated = true;
    return n;
  }

  private int quoted(String s, int i, char close, boolean backslashEscapes) {
    int n = s.length();
    int j = i + 1;
    while (j < n) {
      char c = s.charAt(j);
      if (backslashEscapes && c == '\\') {
        j += 2;
        continue;
      }
      if (c == close) {
        if (j + 1 < n && s.charAt(j + 1) == close) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    unterminated = true;
    return n;
  }

  private static String dollarTag(String s, int i) {
    int j = i + 1;
    while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
      j++;
    }
    return j < s.length() && s.charAt(j) == '$' ? s.substring(i, j + 1) : null;
  }
}
