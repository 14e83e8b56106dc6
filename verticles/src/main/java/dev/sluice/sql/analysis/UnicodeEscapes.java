package dev.sluice.sql.analysis;

/**
 * PostgreSQL's U&amp;'...' / U&amp;"..." escapes: {@code \XXXX} (4 hex digits), {@code \+XXXXXX} (6
 * hex digits) and a doubled escape character for itself, with the escape character chosen by
 * UESCAPE. {@code U&"\0073et_config"} is {@code set_config}: a guard that compared the raw text
 * would let it through.
 */
final class UnicodeEscapes {

  private UnicodeEscapes() {}

  static String decode(String raw, char esc) {
    StringBuilder out = new StringBuilder(raw.length());
    int i = 0;
    while (i < raw.length()) {
      char c = raw.charAt(i);
      if (c != esc) {
        out.append(c);
        i++;
      } else if (i + 1 < raw.length() && raw.charAt(i + 1) == esc) {
        out.append(esc);
        i += 2;
      } else if (i + 1 < raw.length() && raw.charAt(i + 1) == '+' && hex(raw, i + 2, 6)) {
        out.appendCodePoint(Integer.parseInt(raw.substring(i + 2, i + 8), 16));
        i += 8;
      } else if (hex(raw, i + 1, 4)) {
        out.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
        i += 5;
      } else {
        // the server rejects an invalid escape; keep the text so the statement fails there
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static boolean hex(String s, int from, int count) {
    if (from + count > s.length()) {
      return false;
    }
    for (int k = from; k < from + count; k++) {
      if (Character.digit(s.charAt(k), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
