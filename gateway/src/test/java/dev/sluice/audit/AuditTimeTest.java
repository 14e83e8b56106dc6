package dev.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The audit time reads exactly as Instant.toString, whatever the fraction and the second. */
class AuditTimeTest {

  @Test
  void readsAsInstantToStringForEveryKindOfFraction() {
    SplittableRandom random = new SplittableRandom(7);
    long base = Instant.parse("2026-11-29T06:40:00Z").getEpochSecond();
    int[] shapes = {0, 1_000_000, 120_000_000, 5_000, 123_456_000, 7, 999_999_999, 1_000};
    for (int i = 0; i < 20_000; i++) {
      // a few seconds over and over, so the cached second is used and replaced
      long second = base + random.nextInt(4) + (i % 5_000 == 0 ? -86_400L * 365 * 30 : 0);
      int nano = i < shapes.length ? shapes[i] : switch (random.nextInt(3)) {
        case 0 -> random.nextInt(1_000) * 1_000_000;
        case 1 -> random.nextInt(1_000_000) * 1_000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant t = Instant.ofEpochSecond(second, nano);
      assertEquals(t.toString(), AuditTime.format(t), "nano " + nano);
    }
    String now = AuditTime.now();
    assertEquals(now, Instant.parse(now).toString());
  }
}
