package dev.sluice.sql.analysis;

/**
 * One code token of a statement (comments and white space are not tokens).
 *
 * @param kind what the engine reads it as
 * @param text the source slice, quotes and prefixes included
 * @param value what it means: a word as written, an identifier or string decoded (quotes, doubled
 *     quotes, backslash, E'' and U&amp; escapes resolved), a symbol itself
 * @param start offset of the first character in the statement text
 * @param end offset after the last character (closing quote included)
 */
public record Token(Kind kind, String text, String value, int start, int end) {

  /** What a token is to the engine. */
  public enum Kind {
    /** A keyword or unquoted identifier. */
    WORD,
    /** A quoted identifier ("x", `x`, [x], U&amp;"x"); {@code value} is the decoded name. */
    IDENTIFIER,
    /** A string literal of any form ('x', E'x', $$x$$, U&amp;'x', MySQL "x"); {@code value} decoded. */
    STRING,
    NUMBER,
    /** A bind parameter: $1, ?, :name. */
    PARAMETER,
    /** One punctuation or operator character. */
    SYMBOL
  }

  /** Whether this is the keyword or unquoted word {@code word}, ignoring case. */
  public boolean is(String word) {
    return kind == Kind.WORD && text.equalsIgnoreCase(word);
  }

  public boolean isSymbol(char c) {
    return kind == Kind.SYMBOL && text.length() == 1 && text.charAt(0) == c;
  }

  /** A word or quoted identifier: something that can name a relation, column or function. */
  public boolean isName() {
    return kind == Kind.WORD || kind == Kind.IDENTIFIER;
  }
}
