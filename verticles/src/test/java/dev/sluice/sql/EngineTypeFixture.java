package dev.sluice.sql;

import dev.sluice.sql.result.ValueFormat;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The same logical values on every engine and the exact JSON each executor must return for them
 * (specs/004 result table). Engine tests store these values in their own types and compare the
 * reply row with {@link #expected(boolean)}; write values here once.
 */
public final class EngineTypeFixture {

  private EngineTypeFixture() {}

  public static final short SMALL = 32_000;
  public static final int INT = 2_147_483_000;
  /** 2^53 + 1: not representable as a JSON double. */
  public static final long BIG = 9_007_199_254_740_993L;
  /** Stored in a numeric(12,4) / DECIMAL(12,4) column. */
  public static final String DECIMAL = "12345.6700";
  public static final float REAL = 1.5f;
  public static final double DOUBLE = 3.141592653589793;
  public static final boolean FLAG = true;
  public static final String DATE = "2024-03-01";
  /** A timestamp without zone, stored as written. */
  public static final String TIMESTAMP = "2024-03-01 12:34:56";
  /** A zone-aware instant (PG timestamptz, MySQL TIMESTAMP), written in UTC. */
  public static final String INSTANT_UTC = "2024-03-01 12:34:56";
  /** Longer than {@link ValueFormat#MAX_TEXT_CHARS}. */
  public static final String LONG_TEXT = "x".repeat(12_000);
  /** Bytes 0x00 0xff 0x10. */
  public static final String BINARY_HEX = "00ff10";
  public static final String JSON = "{\"a\": 1, \"b\": [true, null]}";
  public static final String UUID = "0b5e6f4e-9c1d-4f7a-8e2b-3c4d5e6f7a8b";

  /** Column names, in order, every engine's fixture table uses; {@code id_uuid} only where the engine has uuid. */
  public static final List<String> COLUMNS = List.of("n_small", "n_int", "n_big", "n_decimal", "n_real", "n_double",
      "flag", "day", "ts", "instant", "body", "bin", "doc", "missing");

  /** The reply row for the fixture; {@code withUuid} appends the uuid column. */
  public static JsonArray expected(boolean withUuid) {
    JsonArray row = new JsonArray()
        .add((int) SMALL)
        .add(INT)
        .add("9007199254740993")
        .add(DECIMAL)
        .add(1.5)
        .add(DOUBLE)
        .add(true)
        .add("2024-03-01")
        .add("2024-03-01T12:34:56")
        .add("2024-03-01T12:34:56Z")
        .add("x".repeat(ValueFormat.MAX_TEXT_CHARS) + ValueFormat.TRUNCATION_MARKER)
        .add("AP8Q")
        .add(new JsonObject().put("a", 1).put("b", new JsonArray().add(true).addNull()))
        .addNull();
    return withUuid ? row.add(UUID) : row;
  }
}
