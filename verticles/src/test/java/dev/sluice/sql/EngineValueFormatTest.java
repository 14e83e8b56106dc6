package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.sql.result.ValueFormat;
import io.vertx.pgclient.data.Interval;
import io.vertx.sqlclient.data.Numeric;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Driver value types the engines hand over, formatted without a database. */
class EngineValueFormatTest {

  @Test
  void driverTypes() {
    assertEquals("12.3400", ValueFormat.format(Numeric.parse("12.3400")));
    assertEquals("NaN", ValueFormat.format(Numeric.parse("NaN")));
    assertEquals("2024-03-01T12:34:00", ValueFormat.format(LocalDateTime.of(2024, 3, 1, 12, 34)));
    assertEquals("2024-03-01T10:34:56Z", ValueFormat.format(OffsetDateTime.of(2024, 3, 1, 12, 34, 56, 0, ZoneOffset.ofHours(2))));
    assertEquals("P1Y2M3DT4H5M6.5S", ValueFormat.format(new Interval(1, 2, 3, 4, 5, 6, 500_000)));
    assertEquals("PT0S", ValueFormat.format(new Interval()));
    assertEquals(0.1, ValueFormat.format(0.1f));
  }

  @Test
  void suggestionsRankByEditDistanceIgnoringCase() {
    assertEquals(List.of("customers", "Customer"), NameSuggester.similar("custmers", List.of("orders", "Customer", "customers")));
    assertEquals(List.of(), NameSuggester.similar("zzz", List.of("customers")));
  }
}
