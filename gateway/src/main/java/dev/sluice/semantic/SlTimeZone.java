package dev.sluice.semantic;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.time.ZoneId;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time zone sl_query groups and filters time dimensions in. Stored values are instants: a
 * timestamp without a zone is read as UTC, one with a zone as what it is. A fixed offset works on
 * every engine; a named (IANA) zone follows daylight saving time and needs the engine's zone
 * database: PostgreSQL has one built in, MySQL/MariaDB only once its time-zone tables are loaded
 * (checked before use), SQLite none.
 *
 * @param name the zone as given back to the caller ("UTC", "+05:30", "Europe/Berlin")
 * @param offsetMinutes the fixed offset, or null for a named zone
 */
record SlTimeZone(String name, Integer offsetMinutes) {

  static final SlTimeZone UTC = new SlTimeZone("UTC", 0);

  private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{2}):?(\\d{2})");
  /** The JDK builds a fresh copy of this set on every call, so it is read once. */
  private static final java.util.Set<String> ZONE_IDS = ZoneId.getAvailableZoneIds();

  /** @param tz null or blank for UTC; "UTC", "Z", "+05:30", "-0800" or an IANA name */
  static SlTimeZone parse(String tz, Dialect dialect) {
    if (tz == null || tz.isBlank() || tz.equalsIgnoreCase("UTC") || tz.equals("Z") || tz.equals("Etc/UTC")) {
      return UTC;
    }
    Matcher m = OFFSET.matcher(tz);
    if (m.matches()) {
      int hours = Integer.parseInt(m.group(2));
      int minutes = Integer.parseInt(m.group(3));
      if (hours > 14 || minutes > 59) {
        throw invalid("timezone '" + tz + "' is not an offset between -14:00 and +14:00");
      }
      int offset = (m.group(1).equals("-") ? -1 : 1) * (hours * 60 + minutes);
      return offset == 0 ? UTC : new SlTimeZone(String.format("%s%02d:%02d", m.group(1), hours, minutes), offset);
    }
    // a closed set of names made of letters, digits, '/', '_', '+' and '-': safe to write into SQL
    if (!ZONE_IDS.contains(tz) || !tz.matches("[A-Za-z0-9/_+-]+")) {
      throw invalid("timezone '" + tz + "' is neither an IANA zone name (e.g. Europe/Berlin) nor an offset "
          + "(e.g. +02:00)");
    }
    if (dialect == Dialect.SQLITE) {
      throw invalid("timezone '" + tz + "': SQLite has no time-zone database, so named zones cannot follow "
          + "daylight saving time there; give a fixed offset such as " + currentOffset(tz));
    }
    return new SlTimeZone(tz, null);
  }

  boolean utc() {
    return offsetMinutes != null && offsetMinutes == 0;
  }

  boolean named() {
    return offsetMinutes == null;
  }

  /** {@code column}'s instant as the wall-clock time of this zone, in the dialect's SQL. */
  String local(Dialect dialect, String column) {
    if (utc()) {
      return column;
    }
    // extract(epoch) reads a zoneless timestamp as UTC and a timestamptz as its instant, so the
    // same expression serves both column types whatever the session's TimeZone setting
    String pgInstant = "to_timestamp(extract(epoch FROM " + column + "))";
    if (named()) {
      return switch (dialect) {
        case POSTGRES -> "(" + pgInstant + " AT TIME ZONE '" + name + "')";
        case MYSQL -> "CONVERT_TZ(" + column + ", '+00:00', '" + name + "')";
        case SQLITE -> throw new IllegalStateException("named zones are refused for SQLite at parse time");
      };
    }
    return switch (dialect) {
      case POSTGRES -> "(" + pgInstant + " AT TIME ZONE 'UTC' + INTERVAL '" + offsetMinutes + " minutes')";
      case MYSQL -> "DATE_ADD(" + column + ", INTERVAL " + offsetMinutes + " MINUTE)";
      case SQLITE -> "datetime(" + column + ", '" + (offsetMinutes > 0 ? "+" : "") + offsetMinutes + " minutes')";
    };
  }

  /** The wall-clock time of this zone at {@code clock}'s instant. */
  java.time.LocalDateTime now(java.time.Clock clock) {
    return java.time.LocalDateTime.ofInstant(clock.instant(), zoneId());
  }

  /**
   * sl_query's {@code as_of}: an instant with an offset ({@code 2025-06-15T12:00:00Z}) seen in this
   * zone, or a wall-clock time or date of this zone ({@code 2025-06-15 12:00}, {@code 2025-06-15}).
   */
  java.time.LocalDateTime at(String asOf) {
    String t = asOf.trim().replace(' ', 'T');
    try {
      if (t.matches(".*(Z|[+-]\\d{2}:?\\d{2})$") && t.contains("T")) {
        return java.time.LocalDateTime.ofInstant(java.time.OffsetDateTime.parse(t).toInstant(), zoneId());
      }
      return t.contains("T") ? java.time.LocalDateTime.parse(t) : java.time.LocalDate.parse(t).atStartOfDay();
    } catch (java.time.format.DateTimeParseException e) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "as_of '" + asOf + "' is not a date or timestamp; write "
          + "2025-06-15, 2025-06-15 12:00:00 (in the call's timezone) or 2025-06-15T12:00:00Z").with("rule", "as_of");
    }
  }

  private java.time.ZoneId zoneId() {
    return named() ? ZoneId.of(name) : java.time.ZoneOffset.ofTotalSeconds(offsetMinutes * 60);
  }

  private static String currentOffset(String zone) {
    String id = ZoneId.of(zone).getRules().getOffset(java.time.Instant.now()).getId();
    return id.equals("Z") ? "+00:00" : id + " (its offset today)";
  }

  private static SqlError invalid(String message) {
    return new SqlError(ErrorType.INVALID_ARGUMENT, message).with("rule", "timezone");
  }
}
