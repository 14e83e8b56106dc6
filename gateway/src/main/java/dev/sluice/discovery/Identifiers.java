package dev.sluice.discovery;

import java.util.Locale;

/** Turns identifiers into words a text analyzer can match: order_items, orderItems -> "order items". */
final class Identifiers {

  private Identifiers() {}

  static String words(String identifier) {
    if (identifier == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(identifier.length() + 8);
    char prev = 0;
    for (int i = 0; i < identifier.length(); i++) {
      char c = identifier.charAt(i);
      if (c == '_' || c == '-' || c == '.' || c == '$') {
        b.append(' ');
      } else {
        boolean boundary = Character.isUpperCase(c) && (Character.isLowerCase(prev)
            || Character.isDigit(prev)
            || i + 1 < identifier.length() && Character.isUpperCase(prev)
                && Character.isLowerCase(identifier.charAt(i + 1)));
        if (boundary) {
          b.append(' ');
        }
        b.append(c);
      }
      prev = c;
    }
    return b.toString().toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", " ");
  }
}
