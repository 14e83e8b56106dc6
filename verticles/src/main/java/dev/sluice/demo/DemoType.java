package dev.sluice.demo;

/**
 * Engine-neutral column types of the demo dataset. Each engine writer maps them to its own DDL
 * type in {@link DemoSql}; generated values use one Java type per logical type.
 */
public enum DemoType {
  /** 32-bit integer; values are {@link Integer}. */
  INT,
  /** 64-bit integer; values are {@link Long}. */
  BIGINT,
  /** Unicode text; values are {@link String}. */
  TEXT,
  /** Exact decimal with the column's precision and scale; values are {@link java.math.BigDecimal}. */
  NUMERIC,
  /** Values are {@link Boolean}. */
  BOOLEAN,
  /** Timestamp without time zone, whole seconds; values are {@link java.time.LocalDateTime}. */
  TIMESTAMP,
  /** A JSON object; values are its canonical text (keys sorted, no whitespace). */
  JSON
}
