package dev.sluice.semantic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.sql.SqlError;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Range phrases resolved against a fixed wall-clock time: Wednesday 15 May 2024, 10:30. */
class RelativeRangeTest {

  private static final LocalDateTime NOW = LocalDateTime.of(2024, 5, 15, 10, 30);

  private static void range(String phrase, String from, String to) {
    RelativeRange r = RelativeRange.parse(phrase, NOW);
    assertEquals(from + " 00:00:00", r.fromText(), phrase);
    assertEquals(to + " 00:00:00", r.toText(), phrase);
  }

  @Test
  void daysAndCountedPeriodsIncludeTheCurrentOne() {
    range("today", "2024-05-15", "2024-05-16");
    range("yesterday", "2024-05-14", "2024-05-15");
    range("last 30 days", "2024-04-16", "2024-05-16");
    range("past 1 day", "2024-05-15", "2024-05-16");
    range("last 2 weeks", "2024-05-06", "2024-05-20");
    range("last 3 months", "2024-03-01", "2024-06-01");
    range("last 2 quarters", "2024-01-01", "2024-07-01");
    range("last 1 year", "2024-01-01", "2025-01-01");
  }

  @Test
  void namedPeriodsAreWholeCalendarPeriods() {
    range("this week", "2024-05-13", "2024-05-20");
    range("previous week", "2024-05-06", "2024-05-13");
    range("this month", "2024-05-01", "2024-06-01");
    range("last month", "2024-04-01", "2024-05-01");
    range("Previous  Month", "2024-04-01", "2024-05-01");
    range("this quarter", "2024-04-01", "2024-07-01");
    range("previous quarter", "2024-01-01", "2024-04-01");
    range("this year", "2024-01-01", "2025-01-01");
    range("last year", "2023-01-01", "2024-01-01");
  }

  @Test
  void periodsCrossYearEnds() {
    RelativeRange r = RelativeRange.parse("previous month", LocalDateTime.of(2025, 1, 3, 0, 0));
    assertEquals("2024-12-01 00:00:00", r.fromText());
    assertEquals("2025-01-01 00:00:00", r.toText());
    RelativeRange q = RelativeRange.parse("previous quarter", LocalDateTime.of(2025, 2, 28, 23, 59));
    assertEquals("2024-10-01 00:00:00", q.fromText());
  }

  @Test
  void anythingElseIsRefusedWithTheAcceptedForms() {
    for (String bad : new String[] {"next month", "last 0 days", "last fortnight", "2024", "", "last 30 days ".repeat(5)}) {
      SqlError e = assertThrows(SqlError.class, () -> RelativeRange.parse(bad, NOW), bad);
      assertEquals("relative_range", e.toJson().getString("rule"), bad);
    }
  }
}
