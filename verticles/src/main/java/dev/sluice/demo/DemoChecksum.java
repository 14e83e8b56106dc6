package dev.sluice.demo;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SHA-256 over a table's rows in primary key order, computed from values as any engine returns
 * them. Values are normalized first (numerics to plain strings at the column's scale, timestamps
 * to {@code YYYY-MM-DDTHH:MM:SS}, booleans to true/false, JSON re-encoded with sorted keys), so
 * equal checksums mean the engines hold the same data.
 */
public final class DemoChecksum {

  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

  private final DemoTable table;
  private final MessageDigest digest;
  private long rows;

  public DemoChecksum(DemoTable table) {
    this.table = table;
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Checksums of the generated data itself, per table. */
  public static Map<String, String> of(DemoData data) {
    Map<String, String> out = new LinkedHashMap<>();
    for (DemoTable t : DemoSchema.TABLES) {
      DemoChecksum c = new DemoChecksum(t);
      data.rows(t).forEach(c::add);
      out.put(t.name(), c.hex());
    }
    return out;
  }

  /** Adds the next row (values aligned with the table's columns, in primary key order). */
  public DemoChecksum add(Object[] values) {
    List<DemoColumn> columns = table.columns();
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(table.name() + ": expected " + columns.size() + " values");
    }
    for (int i = 0; i < values.length; i++) {
      digest.update(normalize(columns.get(i), values[i]).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0x1f);
    }
    digest.update((byte) 0x1e);
    rows++;
    return this;
  }

  public long rows() {
    return rows;
  }

  /** Hex digest of the rows added so far. */
  public String hex() {
    try {
      return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The engine-independent text of one value. */
  public static String normalize(DemoColumn column, Object v) {
    if (v == null) {
      return "\u0000";
    }
    return switch (column.type()) {
      case INT, BIGINT -> v instanceof Number n ? Long.toString(n.longValue()) : v.toString();
      case TEXT -> v.toString();
      case NUMERIC -> decimal(v).setScale(column.scale(), RoundingMode.UNNECESSARY).toPlainString();
      case BOOLEAN -> Boolean.toString(v instanceof Number n ? n.intValue() != 0
          : v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString()));
      case TIMESTAMP -> (v instanceof LocalDateTime t ? t
          : LocalDateTime.parse(v.toString().replace(' ', 'T'))).format(TIMESTAMP);
      case JSON -> Json.encode(canonical(v instanceof String s ? Json.decodeValue(s) : v));
    };
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    // SQLite hands NUMERIC values back as REAL or INTEGER; demo values have at most 12
    // significant digits, so the shortest double representation is the exact decimal
    if (v instanceof Double d) {
      return BigDecimal.valueOf(d);
    }
    if (v instanceof Integer || v instanceof Long) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    return new BigDecimal(v.toString());
  }

  private static Object canonical(Object v) {
    if (v instanceof JsonObject o) {
      return canonical(o.getMap());
    }
    if (v instanceof JsonArray a) {
      return canonical(a.getList());
    }
    if (v instanceof Map<?, ?> m) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      m.forEach((k, x) -> sorted.put(k.toString(), canonical(x)));
      return sorted;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(canonical(x)));
      return out;
    }
    return v;
  }
}
