package dev.sluice.sql.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into code tokens exactly as the engine described by {@link LexRules} does:
 * string and identifier quotes with their escapes, E'', U&amp;, dollar quotes, line and (nested)
 * block comments, MySQL's {@code --} rule and executable comments. Identifiers and strings come
 * out decoded, so every later check compares what the engine will read, not what the text looks
 * like. A character the engines may read differently (a control character, an unterminated quote)
 * is reported as a problem and the statement is refused upstream.
 */
public final class SqlLexer {

  private final LexRules rules;
  private final String s;
  private final int n;
  private final List<Token> tokens = new ArrayList<>();
  private Lexed.Problem problem;

  private SqlLexer(LexRules rules, String text) {
    this.rules = rules;
    this.s = text;
    this.n = text.length();
  }

  public static Lexed lex(LexRules rules, String text) {
    SqlLexer l = new SqlLexer(rules, text);
    l.run();
    return new Lexed(text, List.copyOf(l.tokens), l.problem);
  }

  private void problem(String rule, String message, int at) {
    if (problem == null) {
      problem = new Lexed.Problem(rule, message, at);
    }
  }

  private void run() {
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
      } else if (c < 0x20 || c == 0x7f) {
        // NUL ends a MySQL comment and truncates a PostgreSQL query string; \v and \f are white
        // space to some engines and not others. No query needs them.
        problem("control_character", "the statement contains control character U+"
            + String.format("%04X", (int) c) + " at character " + (i + 1), i);
        i++;
      } else if (lineComment(i)) {
        while (i < n && rules.lineCommentEnds().indexOf(s.charAt(i)) < 0) {
          checkControl(i);
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        i = blockComment(i);
      } else if (c == '\'') {
        i = quoted(i, i, '\'', rules.backslashEscapes(), Token.Kind.STRING);
      } else if (c == '"') {
        i = quoted(i, i, '"', rules.doubleQuotedStrings() && rules.backslashEscapes(),
            rules.doubleQuotedStrings() ? Token.Kind.STRING : Token.Kind.IDENTIFIER);
      } else if (c == '`' && rules.backtickIdentifiers()) {
        i = quoted(i, i, '`', false, Token.Kind.IDENTIFIER);
      } else if (c == '[' && rules.bracketIdentifiers()) {
        int close = s.indexOf(']', i + 1);
        if (close < 0) {
          problem("unterminated", "a [quoted identifier] is not closed", i);
          close = n - 1;
        }
        add(Token.Kind.IDENTIFIER, i, close + 1, s.substring(i + 1, Math.max(i + 1, close)));
        i = close + 1;
      } else if (c == '$' && rules.dollarQuotes() && (i + 1 < n && Character.isDigit(s.charAt(i + 1)))) {
        int j = i + 1;
        while (j < n && Character.isDigit(s.charAt(j))) {
          j++;
        }
        add(Token.Kind.PARAMETER, i, j, s.substring(i, j));
        i = j;
      } else if (c == '$' && rules.dollarQuotes() && dollarTag(i) != null) {
        i = dollarQuoted(i);
      } else if (c == '?') {
        add(Token.Kind.PARAMETER, i, i + 1, "?");
        i++;
      } else if (wordStart(c)) {
        i = word(i);
      } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(s.charAt(i + 1))) {
        int j = i;
        while (j < n && (wordPart(s.charAt(j)) || s.charAt(j) == '.')) {
          j++;
        }
        add(Token.Kind.NUMBER, i, j, s.substring(i, j));
        i = j;
      } else {
        add(Token.Kind.SYMBOL, i, i + 1, String.valueOf(c));
        i++;
      }
    }
  }

  private void checkControl(int i) {
    char c = s.charAt(i);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f) {
      problem("control_character", "the statement contains control character U+"
          + String.format("%04X", (int) c) + " at character " + (i + 1), i);
    }
  }

  private boolean lineComment(int i) {
    char c = s.charAt(i);
    if (c == '#' && rules.hashComments()) {
      return true;
    }
    if (c != '-' || i + 1 >= n || s.charAt(i + 1) != '-') {
      return false;
    }
    if (!rules.dashCommentNeedsSpace()) {
      return true;
    }
    // MySQL/MariaDB: "--" opens a comment only before white space, a control character or the end
    return i + 2 >= n || s.charAt(i + 2) <= ' ';
  }

  private int blockComment(int i) {
    int start = i;
    if (i + 2 < n && (s.charAt(i + 2) == '!' || s.charAt(i + 2) == 'M' && i + 3 < n && s.charAt(i + 3) == '!')
        && rules.executableComments()) {
      problem("executable_comment", "MySQL executable comments (/*! ... */) run code", i);
    }
    boolean hint = rules.executableComments() && i + 2 < n && s.charAt(i + 2) == '+';
    int depth = 0;
    while (i < n) {
      if (s.startsWith("/*", i)) {
        depth = rules.nestedBlockComments() || depth == 0 ? depth + 1 : depth;
        i += 2;
      } else if (s.startsWith("*/", i)) {
        depth--;
        i += 2;
        if (depth == 0) {
          if (hint) {
            sessionHint(start, i);
          }
          return i;
        }
      } else {
        checkControl(i);
        i++;
      }
    }
    problem("unterminated", "a /* comment */ is not closed", start);
    return n;
  }

  /**
   * A MySQL optimizer hint that sets a session variable for the statement: SET_VAR(...) reaches
   * sql_select_limit, max_execution_time and sql_mode, MAX_EXECUTION_TIME(0) lifts the deadline.
   * The gateway pins those per session; other hints (join order, indexes) only steer the plan.
   */
  private void sessionHint(int start, int end) {
    String body = s.substring(start + 3, end - 2).toLowerCase(java.util.Locale.ROOT);
    if (body.contains("set_var") || body.contains("max_execution_time")) {
      problem("optimizer_hint", "the optimizer hint at character " + (start + 1) + " sets a session "
          + "variable (SET_VAR, MAX_EXECUTION_TIME), which would lift the deadline, row cap or SQL mode "
          + "the gateway sets", start);
    }
  }

  private boolean wordStart(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
  }

  private boolean wordPart(char c) {
    return wordStart(c) || c >= '0' && c <= '9' || c == '$';
  }

  private int word(int i) {
    int j = i;
    while (j < n && wordPart(s.charAt(j))) {
      j++;
    }
    String w = s.substring(i, j);
    if (j < n && s.charAt(j) == '\'' && w.length() == 1) {
      char p = Character.toLowerCase(w.charAt(0));
      if (p == 'e' && rules.escapeStrings()) {
        // E'...': backslash escapes, whatever standard_conforming_strings says
        return quoted(i, j, '\'', true, Token.Kind.STRING);
      }
    }
    if (rules.unicodeEscapes() && w.equalsIgnoreCase("u") && j + 1 < n && s.charAt(j) == '&'
        && (s.charAt(j + 1) == '\'' || s.charAt(j + 1) == '"')) {
      char q = s.charAt(j + 1);
      int end = quoted(i, j + 1, q, false, q == '"' ? Token.Kind.IDENTIFIER : Token.Kind.STRING);
      Token t = tokens.remove(tokens.size() - 1);
      tokens.add(new Token(t.kind(), t.text(), UnicodeEscapes.decode(t.value(), '\\'), t.start(), t.end()));
      return uescape(end);
    }
    add(Token.Kind.WORD, i, j, w);
    return j;
  }

  /** A UESCAPE 'c' clause after a U&amp; literal re-decodes it with that escape character. */
  private int uescape(int after) {
    int k = skipBlanks(after);
    if (k + 7 <= n && s.regionMatches(true, k, "uescape", 0, 7) && (k + 7 == n || !wordPart(s.charAt(k + 7)))) {
      int q = skipBlanks(k + 7);
      if (q + 2 < n && s.charAt(q) == '\'' && s.charAt(q + 2) == '\'') {
        Token t = tokens.remove(tokens.size() - 1);
        String raw = raw(t);
        tokens.add(new Token(t.kind(), s.substring(t.start(), q + 3), UnicodeEscapes.decode(raw, s.charAt(q + 1)),
            t.start(), q + 3));
        return q + 3;
      }
      problem("unparseable", "UESCAPE must be followed by a one-character string", k);
    }
    return after;
  }

  /** The undecoded body of a U&amp; token, quotes doubled back to one. */
  private String raw(Token t) {
    int open = t.text().indexOf(t.kind() == Token.Kind.IDENTIFIER ? '"' : '\'');
    char q = t.text().charAt(open);
    String body = t.text().substring(open + 1, t.text().length() - 1);
    return body.replace(String.valueOf(q) + q, String.valueOf(q));
  }

  private int skipBlanks(int i) {
    while (i < n) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
      } else if (lineComment(i)) {
        while (i < n && rules.lineCommentEnds().indexOf(s.charAt(i)) < 0) {
          i++;
        }
      } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
        i = blockComment(i);
      } else {
        return i;
      }
    }
    return i;
  }

  /**
   * A quoted token from {@code quoteAt}; {@code tokenStart} includes a prefix such as E or U&amp;.
   * Doubled quotes stand for one; with {@code backslash}, a backslash escapes the next character.
   */
  private int quoted(int tokenStart, int quoteAt, char q, boolean backslash, Token.Kind kind) {
    StringBuilder value = new StringBuilder();
    int j = quoteAt + 1;
    while (j < n) {
      char c = s.charAt(j);
      checkControl(j);
      if (backslash && c == '\\') {
        if (j + 1 >= n) {
          break;
        }
        j = escape(j, value);
        continue;
      }
      if (c == q) {
        if (j + 1 < n && s.charAt(j + 1) == q) {
          value.append(q);
          j += 2;
          continue;
        }
        add(kind, tokenStart, j + 1, value.toString());
        return j + 1;
      }
      value.append(c);
      j++;
    }
    problem("unterminated", (kind == Token.Kind.STRING ? "a string literal" : "a quoted identifier")
        + " opened at character " + (quoteAt + 1) + " is not closed", quoteAt);
    add(kind, tokenStart, n, value.toString());
    return n;
  }

  /** One backslash escape at {@code j}: appends its meaning, returns the offset after it. */
  private int escape(int j, StringBuilder value) {
    char e = s.charAt(j + 1);
    switch (e) {
      case 'n' -> value.append('\n');
      case 't' -> value.append('\t');
      case 'r' -> value.append('\r');
      case 'b' -> value.append('\b');
      case 'f' -> value.append('\f');
      case '0' -> value.append('\0');
      case 'Z' -> value.append((char) 26);
      default -> value.append(e);
    }
    return j + 2;
  }

  private String dollarTag(int i) {
    int j = i + 1;
    if (j < n && Character.isDigit(s.charAt(j))) {
      return null;
    }
    while (j < n && (wordStart(s.charAt(j)) || Character.isDigit(s.charAt(j)))) {
      j++;
    }
    return j < n && s.charAt(j) == '$' ? s.substring(i, j + 1) : null;
  }

  private int dollarQuoted(int i) {
    String tag = dollarTag(i);
    int close = s.indexOf(tag, i + tag.length());
    if (close < 0) {
      problem("unterminated", "the dollar-quoted string " + tag + " opened at character " + (i + 1)
          + " is not closed", i);
      add(Token.Kind.STRING, i, n, s.substring(i + tag.length()));
      return n;
    }
    for (int k = i; k < close; k++) {
      checkControl(k);
    }
    add(Token.Kind.STRING, i, close + tag.length(), s.substring(i + tag.length(), close));
    return close + tag.length();
  }

  private void add(Token.Kind kind, int start, int end, String value) {
    tokens.add(new Token(kind, s.substring(start, end), value, start, end));
  }
}
