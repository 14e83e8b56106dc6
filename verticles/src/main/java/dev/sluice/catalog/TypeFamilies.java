package dev.sluice.catalog;

import java.util.Locale;

/**
 * Maps a native column type of any engine to a driver-neutral family and a dimension type. SQLite
 * follows its affinity rules (a declared type containing INT is an integer, and so on), so an
 * unusual declared type still lands in a sensible family.
 */
final class TypeFamilies {

  /** PostgreSQL's built-in geometric types and MySQL's spatial ones. */
  private static final java.util.Set<String> GEOMETRIC = java.util.Set.of("point", "line", "lseg", "box", "path",
      "polygon", "circle", "geometry", "linestring", "multipoint", "multilinestring", "multipolygon",
      "geometrycollection", "geomcollection");

  private TypeFamilies() {}

  static String normalized(String nativeType) {
    String t = nativeType == null ? "" : nativeType.toLowerCase(Locale.ROOT).trim();
    if (t.isEmpty()) {
      return "other";
    }
    if (t.startsWith("bool") || t.equals("tinyint(1)") || t.equals("bit(1)")) {
      return "boolean";
    }
    if (t.startsWith("timestamp") || t.startsWith("datetime")) {
      return "timestamp";
    }
    if (t.equals("date")) {
      return "date";
    }
    if (t.startsWith("time") || t.startsWith("interval")) {
      return t.startsWith("interval") ? "interval" : "time";
    }
    if (t.startsWith("json")) {
      return "json";
    }
    if (t.equals("uuid")) {
      return "uuid";
    }
    if (t.endsWith("range") || GEOMETRIC.contains(t)) {
      // int4range, point and multipoint are not integers, whatever their names contain
      return "other";
    }
    if (t.contains("int") || t.equals("serial") || t.equals("bigserial") || t.equals("year")) {
      return "integer";
    }
    if (t.startsWith("numeric") || t.startsWith("decimal") || t.equals("money")) {
      return "decimal";
    }
    if (t.startsWith("double") || t.startsWith("float") || t.startsWith("real")) {
      return "float";
    }
    if (t.contains("char") || t.contains("text") || t.contains("clob") || t.startsWith("enum")
        || t.startsWith("set(") || t.equals("name") || t.equals("citext")) {
      return "text";
    }
    if (t.contains("blob") || t.startsWith("bytea") || t.contains("binary")) {
      return "binary";
    }
    return "other";
  }

  static String dimension(String normalized) {
    return switch (normalized) {
      case "timestamp", "date", "time" -> "time";
      case "integer", "decimal", "float", "interval" -> "number";
      case "boolean" -> "boolean";
      default -> "string";
    };
  }

  /** Text columns carry the literals agents ask about ("Berlin", "shipped"); they are profiled. */
  static boolean profiled(String normalized) {
    return normalized.equals("text");
  }
}
