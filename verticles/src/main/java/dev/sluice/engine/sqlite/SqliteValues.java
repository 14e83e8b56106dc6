package dev.sluice.engine.sqlite;

import dev.sluice.sql.result.ValueFormat;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQLite stores few types, so values are formatted by the column's DECLARED type to match what
 * PostgreSQL and MySQL return for the same logical value (the cross-engine contract in
 * specs/004): NUMERIC(p,s) as exact decimals at the declared scale, BOOLEAN as true/false,
 * TIMESTAMP text as ISO-8601, JSON parsed, BLOB base64.
 */
final class SqliteValues {

  enum Kind { RUNTIME, INTEGER, REAL, DECIMAL, BOOLEAN, DATE, TIMESTAMP, TIMESTAMPTZ, JSON, BLOB, TEXT }

  private static final Pattern SCALE = Pattern.compile("\\(\\s*\\d+\\s*,\\s*(\\d+)\\s*\\)");

  private SqliteValues() {}

  static Kind kind(String declared) {
    if (declared == null || declared.isBlank()) {
      return Kind.RUNTIME;
    }
    String t = declared.toUpperCase(Locale.ROOT);
    if (t.contains("BOOL")) {
      return Kind.BOOLEAN;
    }
    if (t.contains("INT")) {
      return Kind.INTEGER;
    }
    if (t.contains("DEC") || t.contains("NUMERIC")) {
      return Kind.DECIMAL;
    }
    if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
      return Kind.REAL;
    }
    if (t.contains("TIMESTAMPTZ") || t.contains("WITH TIME ZONE")) {
      return Kind.TIMESTAMPTZ;
    }
    if (t.contains("DATETIME") || t.contains("TIMESTAMP")) {
      return Kind.TIMESTAMP;
    }
    if (t.equals("DATE")) {
      return Kind.DATE;
    }
    if (t.contains("JSON")) {
      return Kind.JSON;
    }
    if (t.contains("BLOB") || t.contains("BINARY")) {
      return Kind.BLOB;
    }
    return t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") ? Kind.TEXT : Kind.RUNTIME;
  }

  /**
   * The declared scale of {@code NUMERIC(p,s)}, or -1. sqlite-jdbc's type name drops the
   * {@code (p,s)}, so the metadata's precision/scale (parsed by the driver from the declaration)
   * decide when the name does not carry it; precision 0 means none was declared.
   */
  static int scale(String declared, int precision, int metadataScale) {
    int named = scale(declared);
    return named >= 0 ? named : precision > 0 ? metadataScale : -1;
  }

  /** The scale written in a type name such as {@code NUMERIC(12,4)}, or -1. */
  static int scale(String declared) {
    if (declared == null) {
      return -1;
    }
    Matcher m = SCALE.matcher(declared);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  static Object read(ResultSet rs, int i, Kind kind, int scale) throws SQLException {
    Object raw = rs.getObject(i);
    if (raw == null) {
      return null;
    }
    // a value whose storage class does not fit the declared type is shown as stored
    switch (kind) {
      case INTEGER:
        return raw instanceof Number n && !(raw instanceof Double) ? ValueFormat.format(n.longValue()) : runtime(raw);
      case REAL:
        return raw instanceof Number n ? ValueFormat.format(n.doubleValue()) : runtime(raw);
      case DECIMAL:
        if (raw instanceof Number || raw instanceof String) {
          try {
            BigDecimal d = new BigDecimal(raw.toString());
            return (scale >= 0 ? d.setScale(scale, RoundingMode.HALF_UP) : d).toPlainString();
          } catch (NumberFormatException e) {
            return runtime(raw);
          }
        }
        return runtime(raw);
      case BOOLEAN:
        return raw instanceof Number n ? n.longValue() != 0 : runtime(raw);
      case TIMESTAMP:
        return raw instanceof String s ? iso(s) : runtime(raw);
      case TIMESTAMPTZ:
        if (raw instanceof String s) {
          String iso = iso(s);
          return iso.endsWith("Z") || iso.matches(".*[+-]\\d\\d:?\\d\\d$") ? iso : iso + "Z";
        }
        return runtime(raw);
      case JSON:
        if (raw instanceof String s) {
          try {
            return Json.decodeValue(s);
          } catch (DecodeException e) {
            return ValueFormat.text(s);
          }
        }
        return runtime(raw);
      default:
        return runtime(raw);
    }
  }

  private static Object runtime(Object raw) {
    if (raw instanceof Integer i) {
      return i;
    }
    return ValueFormat.format(raw);
  }

  /** {@code 2024-03-01 12:34:56} → {@code 2024-03-01T12:34:56}, as PG and MySQL answer. */
  static String iso(String s) {
    return s.length() > 10 && s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
  }
}
