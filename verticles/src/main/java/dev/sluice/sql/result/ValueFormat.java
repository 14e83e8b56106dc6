package dev.sluice.sql.result;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
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
      return f.isNaN() || f.isInfinite() ? f.toString() : (double) f;
    }
    if (v instanceof String s) {
      return text(s);
    }
    if (v instanceof TemporalAccessor t) {
      return t.toString();
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

  public static String text(String s) {
    return s.length() > MAX_TEXT_CHARS ? s.substring(0, MAX_TEXT_CHARS) + TRUNCATION_MARKER : s;
  }
}
