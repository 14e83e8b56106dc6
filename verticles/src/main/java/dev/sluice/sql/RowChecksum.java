package dev.sluice.sql;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An order-insensitive fingerprint of a whole result, built row by row as it streams: each row's
 * values are normalized (exact numbers without trailing zeros, floats to a declared number of
 * significant digits, NULL distinct from any text), the row is hashed, and the 64-bit hashes are
 * summed. Equal multisets of rows give equal sums whatever their order; a missing, extra or
 * duplicated row changes it. The first {@link #SAMPLED} distinct rows are kept with their counts,
 * so a difference can be shown with the rows behind it.
 */
public final class RowChecksum {

  /** Distinct rows remembered for showing differences; beyond it only the sum is kept. */
  public static final int SAMPLED = 10_000;

  private final int floatDigits;
  private final MessageDigest sha;
  private long sum;
  private long rows;
  private int columns = -1;
  private final Map<Long, Object[]> sample = new LinkedHashMap<>();

  /** @param floatDigits significant digits floats are compared at (their declared tolerance) */
  public RowChecksum(int floatDigits) {
    this.floatDigits = floatDigits;
    try {
      this.sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public void add(JsonArray row) {
    StringBuilder canon = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      canon.append(canonical(row.getValue(i))).append('\u001f');
    }
    byte[] d = sha.digest(canon.toString().getBytes(StandardCharsets.UTF_8));
    long h = 0;
    for (int i = 0; i < 8; i++) {
      h = (h << 8) | (d[i] & 0xff);
    }
    sum += h;
    rows++;
    columns = row.size();
    Object[] seen = sample.get(h);
    if (seen != null) {
      seen[0] = (Long) seen[0] + 1;
    } else if (sample.size() < SAMPLED) {
      sample.put(h, new Object[] {1L, row.copy()});
    }
  }

  String canonical(Object v) {
    if (v == null) {
      return "\u0000NULL";
    }
    if (v instanceof Double || v instanceof Float) {
      double x = ((Number) v).doubleValue();
      return Double.isFinite(x) ? "n:" + new BigDecimal(x).round(new MathContext(floatDigits)).stripTrailingZeros()
          .toPlainString() : "n:" + x;
    }
    if (v instanceof Number n) {
      return "n:" + new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
    }
    if (v instanceof String s && s.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
      // exact numerics travel as strings; 10.50 and 10.5 are the same value
      BigDecimal b = new BigDecimal(s);
      return "n:" + (s.contains("e") || s.contains("E") ? b.round(new MathContext(floatDigits)) : b)
          .stripTrailingZeros().toPlainString();
    }
    if (v instanceof Boolean b) {
      return "n:" + (b ? "1" : "0");
    }
    return "s:" + v;
  }

  /** {rowCount, columnCount, checksum, sample: [{hash, count, row}]} */
  public JsonObject toJson() {
    JsonArray s = new JsonArray();
    sample.forEach((h, e) -> s.add(new JsonObject().put("hash", Long.toHexString(h)).put("count", e[0])
        .put("row", e[1])));
    return new JsonObject().put("rowCount", rows).put("columnCount", columns).put("checksum", Long.toHexString(sum))
        .put("sampleComplete", rows == 0 || sample.size() < SAMPLED).put("sample", s);
  }
}
