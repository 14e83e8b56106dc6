package dev.sluice.sql.result;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import io.vertx.pgclient.data.Interval;
import io.vertx.sqlclient.data.Numeric;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAccessor;
import java.util.Base64;
import java.util.UUID;

/**
 * Turns engine values into JSON the same way on every engine (specs/004 result table): exact
 * numerics and integers beyond 2^53 as strings, temporal values ISO-8601, binary base64, JSON
 * parsed, long text cut with a marker, NULL as null.
 */
public final class ValueFormat {

  /** Text longer than this many characters is cut and marked. */
  public static final int MAX_TEXT_CHARS = 10_240;

  public static final String TRUNCATION_MARKER = "...[truncated]";

  /** Largest integer a JSON client (IEEE double) represents exactly. */
  private static final long MAX_SAFE_INTEGER = 9_007_199_254_740_991L;

  private ValueFormat() {}

  public static Object format(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Boolean || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return v instanceof Byte b ? (int) b : v;
    }
    if (v instanceof Long l) {
      return Math.abs(l) <= MAX_SAFE_INTEGER ? l : Long.toString(l);
    }
    if (v instanceof BigInteger bi) {
      return bi.bitLength() < 53 ? bi.longValue() : bi.toString();
    }
    if (v instanceof BigDecimal bd) {
      return bd.toPlainString();
    }
    if (v instanceof Double d) {
      return d.isNaN() || d.isInfinite() ? d.toString() : d;
    }
    if (v instanceof Float f) {
      // Via the float's shortest decimal form: (double) 0.1f would print 0.10000000149011612.
      return f.isNaN() || f.isInfinite() ? f.toString() : Double.parseDouble(Float.toString(f));
    }
    if (v instanceof String s) {
      return text(s);
    }
    if (v instanceof Numeric n) {
      return n.isNaN() ? "NaN" : n.bigDecimalValue().toPlainString();
    }
    // java.time toString() drops ":00" seconds; agents compare strings, so always print seconds.
    if (v instanceof LocalDateTime t) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(t);
    }
    if (v instanceof OffsetDateTime t) {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(t.withOffsetSameInstant(ZoneOffset.UTC));
    }
    if (v instanceof LocalTime t) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(t);
    }
    if (v instanceof TemporalAccessor t) {
      return t.toString();
    }
    if (v instanceof Interval i) {
      return interval(i);
    }
    if (v instanceof UUID) {
      return v.toString();
    }
    if (v instanceof Buffer b) {
      return Base64.getEncoder().encodeToString(b.getBytes());
    }
    if (v instanceof byte[] bytes) {
      return Base64.getEncoder().encodeToString(bytes);
    }
    if (v instanceof JsonObject || v instanceof JsonArray) {
      return v;
    }
    if (v instanceof Number n) {
      // driver-specific exact numerics (e.g. the PG client's Numeric)
      return n.toString();
    }
    if (v instanceof Object[] arr) {
      JsonArray out = new JsonArray();
      for (Object o : arr) {
        out.add(format(o));
      }
      return out;
    }
    return text(v.toString());
  }

  /** A coordinate as the engines print it in geometric text: 1 and 2.5, not 1.0. */
  public static String shortest(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /**
   * A zone-aware timestamp the engine handed over without its zone (MySQL TIMESTAMP read in a UTC
   * session): same JSON as a PostgreSQL timestamptz.
   */
  public static Object utcTimestamp(Object v) {
    return v instanceof LocalDateTime t ? format(t.atOffset(ZoneOffset.UTC)) : format(v);
  }

  /** ISO-8601 duration, e.g. {@code P1Y2M3DT4H5M6.5S}. */
  static String interval(Interval i) {
    StringBuilder b = new StringBuilder("P");
    if (i.getYears() != 0) b.append(i.getYears()).append('Y');
    if (i.getMonths() != 0) b.append(i.getMonths()).append('M');
    if (i.getDays() != 0) b.append(i.getDays()).append('D');
    long micros = ((i.getHours() * 60L + i.getMinutes()) * 60L + i.getSeconds()) * 1_000_000L + i.getMicroseconds();
    if (micros != 0 || b.length() == 1) {
      b.append('T');
      long h = micros / 3_600_000_000L;
      long m = (micros / 60_000_000L) % 60;
      BigDecimal sec = BigDecimal.valueOf(micros % 60_000_000L, 6).stripTrailingZeros();
      if (h != 0) b.append(h).append('H');
      if (m != 0) b.append(m).append('M');
      if (sec.signum() != 0 || (h == 0 && m == 0)) b.append(sec.toPlainString()).append('S');
    }
    return b.toString();
  }

  public static String text(String s) {
    return s.length() > MAX_TEXT_CHARS ? s.substring(0, MAX_TEXT_CHARS) + TRUNCATION_MARKER : s;
  }
}
