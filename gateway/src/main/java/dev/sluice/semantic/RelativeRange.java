package dev.sluice.semantic;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time range said in words, as sl_query's {@code during} filter takes it, resolved against the
 * wall-clock time of the call's zone into a half-open range [from, to):
 *
 * <ul>
 *   <li>{@code today}, {@code yesterday};
 *   <li>{@code this week|month|quarter|year}: the calendar period that contains now;
 *   <li>{@code last|previous|past week|month|quarter|year}: the whole calendar period before it;
 *   <li>{@code last|past N days|weeks|months|quarters|years}: N calendar periods ending with the
 *       current one ("last 30 days" is today and the 29 days before).
 * </ul>
 *
 * Weeks start on Monday (ISO 8601); quarters on 1 January, April, July and October.
 */
record RelativeRange(String phrase, LocalDateTime from, LocalDateTime to) {

  /** A phrase longer than this is no range; refused before any parsing. */
  static final int MAX_PHRASE = 40;
  private static final Pattern COUNTED = Pattern.compile("(?:last|past) (\\d{1,4}) (day|week|month|quarter|year)s?");
  private static final Pattern PERIOD = Pattern.compile("(this|last|previous|past) (day|week|month|quarter|year)");
  static final DateTimeFormatter SQL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  static RelativeRange parse(String text, LocalDateTime now) {
    if (text == null || text.length() > MAX_PHRASE) {
      throw invalid(String.valueOf(text));
    }
    String p = text.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    LocalDate today = now.toLocalDate();
    switch (p) {
      case "today":
        return days(text, today, 1);
      case "yesterday":
        return days(text, today.minusDays(1), 1);
      default:
        break;
    }
    Matcher counted = COUNTED.matcher(p);
    if (counted.matches()) {
      int n = Integer.parseInt(counted.group(1));
      if (n < 1) {
        throw invalid(text);
      }
      String unit = counted.group(2);
      LocalDate next = plus(start(today, unit), unit, 1);
      return new RelativeRange(text, plus(next, unit, -n).atStartOfDay(), next.atStartOfDay());
    }
    Matcher period = PERIOD.matcher(p);
    if (period.matches()) {
      String unit = period.group(2);
      LocalDate current = start(today, unit);
      LocalDate from = period.group(1).equals("this") ? current : plus(current, unit, -1);
      return new RelativeRange(text, from.atStartOfDay(), plus(from, unit, 1).atStartOfDay());
    }
    throw invalid(text);
  }

  private static RelativeRange days(String text, LocalDate first, int n) {
    return new RelativeRange(text, first.atStartOfDay(), first.plusDays(n).atStartOfDay());
  }

  /** The first day of the calendar period of {@code unit} that contains {@code day}. */
  static LocalDate start(LocalDate day, String unit) {
    return switch (unit) {
      case "day" -> day;
      case "week" -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
      case "month" -> day.withDayOfMonth(1);
      case "quarter" -> day.withDayOfMonth(1).withMonth((day.getMonthValue() - 1) / 3 * 3 + 1);
      default -> day.withDayOfYear(1);
    };
  }

  /** {@code day} moved by {@code n} periods of {@code unit} (a quarter is three months). */
  static LocalDate plus(LocalDate day, String unit, long n) {
    return switch (unit) {
      case "day" -> day.plusDays(n);
      case "week" -> day.plusWeeks(n);
      case "month" -> day.plusMonths(n);
      case "quarter" -> day.plusMonths(3 * n);
      default -> day.plusYears(n);
    };
  }

  String fromText() {
    return SQL.format(from);
  }

  String toText() {
    return SQL.format(to);
  }

  private static SqlError invalid(String text) {
    return new SqlError(ErrorType.INVALID_ARGUMENT, "time range '" + text + "' is not one sl_query knows; say today, "
        + "yesterday, this|last|previous week|month|quarter|year, or last N days|weeks|months|quarters|years "
        + "(e.g. 'last 30 days', 'previous month')").with("rule", "relative_range");
  }
}
