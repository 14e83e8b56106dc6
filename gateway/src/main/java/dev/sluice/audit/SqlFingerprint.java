package dev.sluice.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A statement's shape without its values: comments dropped, string and number literals replaced
 * by {@code ?}, whitespace collapsed, lower-cased outside quoted identifiers; then hashed. Two
 * queries that differ only in their literals share a fingerprint, so the audit can count "the same
 * query" across agents.
 */
public final class SqlFingerprint {

  private SqlFingerprint() {}

  public static String normalize(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
        space(out);
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        space(out);
      } else if (c == '\'') {
        i = skipQuoted(sql, i, '\'');
        out.append('?');
      } else if (c == '"' || c == '`') {
        int end = skipQuoted(sql, i, c);
        out.append(sql, i, end);
        i = end;
      } else if (Character.isDigit(c) && (out.length() == 0 || !Character.isLetterOrDigit(out.charAt(out.length() - 1))
          && out.charAt(out.length() - 1) != '_')) {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
        out.append('?');
      } else if (Character.isWhitespace(c)) {
        space(out);
        i++;
      } else {
        out.append(Character.toLowerCase(c));
        i++;
      }
    }
    return out.toString().strip().replaceAll("\\s*;$", "");
  }

  /** 16 hex characters of the SHA-256 of {@link #normalize}. */
  public static String of(String sql) {
    if (sql == null) {
      return null;
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(normalize(sql).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int skipQuoted(String sql, int start, char q) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == q) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  private static void space(StringBuilder out) {
    if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
      out.append(' ');
    }
  }
}
