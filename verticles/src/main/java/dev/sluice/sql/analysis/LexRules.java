package dev.sluice.sql.analysis;

/**
 * How one engine reads SQL text at the lexical level: which quotes exist, how they escape, which
 * comments it knows and where a line comment ends. Each engine package supplies its own; the
 * {@link SqlLexer} is the same for all, so a difference between engines is a value here, never a
 * branch in the lexer. The values must match the engine exactly: a statement boundary or comment
 * the lexer places elsewhere than the server is how a second statement slips past a guard.
 *
 * @param backslashEscapes {@code \} escapes the next character inside '...' (and "..." strings):
 *     MySQL/MariaDB without NO_BACKSLASH_ESCAPES; PostgreSQL only inside E'...'
 * @param doubleQuotedStrings "..." is a string literal, not an identifier (MySQL without ANSI_QUOTES)
 * @param backtickIdentifiers `...` quotes an identifier (MySQL, SQLite)
 * @param bracketIdentifiers [...] quotes an identifier (SQLite)
 * @param nestedBlockComments block comments nest (PostgreSQL)
 * @param dashCommentNeedsSpace {@code --} starts a comment only when followed by a space or control
 *     character (MySQL/MariaDB: {@code 1--1} is two minus signs)
 * @param hashComments {@code #} starts a line comment (MySQL/MariaDB)
 * @param executableComments {@code /*!} and {@code /*M!} comments are code the server runs, and
 *     {@code /*+} optimizer hints may set session variables (MySQL 8's SET_VAR)
 * @param dollarQuotes $tag$...$tag$ strings (PostgreSQL)
 * @param escapeStrings E'...' strings with backslash escapes (PostgreSQL)
 * @param unicodeEscapes U&'...' and U&"..." with backslash (or UESCAPE) unicode escapes (PostgreSQL)
 * @param lineCommentEnds the characters that end a line comment ({@code "\n\r"} in PostgreSQL)
 */
public record LexRules(
    boolean backslashEscapes,
    boolean doubleQuotedStrings,
    boolean backtickIdentifiers,
    boolean bracketIdentifiers,
    boolean nestedBlockComments,
    boolean dashCommentNeedsSpace,
    boolean hashComments,
    boolean executableComments,
    boolean dollarQuotes,
    boolean escapeStrings,
    boolean unicodeEscapes,
    String lineCommentEnds) {}
