package dev.sluice.audit;

import java.time.Instant;

/**
 * An audit record's time, the same text as {@link Instant#toString()} (ISO-8601, UTC, the
 * fraction in groups of three digits). The date and time of day are formatted once per second:
 * {@code Instant.toString} on every record was a sixth of what building the record allocated.
 */
final class AuditTime {

  /** The last second formatted, without its zone letter; immutable, so a racing reader is safe. */
  private record Second(long epochSecond, String text) {
  }

  private static volatile Second last = new Second(Long.MIN_VALUE, "");

  private AuditTime() {
  }

  static String now() {
    return format(Instant.now());
  }

  static String format(Instant t) {
    Second s = last;
    if (s.epochSecond() != t.getEpochSecond()) {
      String whole = Instant.ofEpochSecond(t.getEpochSecond()).toString();
      s = new Second(t.getEpochSecond(), whole.substring(0, whole.length() - 1));
      last = s;
    }
    int nano = t.getNano();
    if (nano == 0) {
      return s.text() + 'Z';
    }
    StringBuilder b = new StringBuilder(s.text().length() + 11).append(s.text()).append('.');
    if (nano % 1_000_000 == 0) {
      digits(b, nano / 1_000_000, 3);
    } else if (nano % 1_000 == 0) {
      digits(b, nano / 1_000, 6);
    } else {
      digits(b, nano, 9);
    }
    return b.append('Z').toString();
  }

  /** {@code value} zero-padded to {@code width} digits, without a String for it. */
  private static void digits(StringBuilder b, int value, int width) {
    for (int unit = width == 3 ? 100 : width == 6 ? 100_000 : 100_000_000; unit > 0; unit /= 10) {
      b.append((char) ('0' + value / unit % 10));
    }
  }
}
