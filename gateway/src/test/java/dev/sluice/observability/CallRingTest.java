package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class CallRingTest {

  private static final long NOW = 1_800_000_000L;

  @Test
  void countsCallsPerSecondAndTheP99BucketOfTheirLatency() {
    CallRing ring = new CallRing();
    for (int i = 0; i < 98; i++) {
      ring.record(NOW, 5_000_000L);
    }
    ring.record(NOW, 900_000_000L);
    ring.record(NOW, 900_000_000L);
    ring.record(NOW - 1, 500_000L);
    JsonObject s = ring.snapshot(NOW);
    int last = CallRing.SECONDS - 1;
    assertEquals(CallRing.SECONDS, s.getJsonArray("calls").size());
    assertEquals(100L, s.getJsonArray("calls").getLong(last));
    // the 99th of 100 calls took 900 ms: its bucket's upper bound is 1,024 ms
    assertEquals(1024L, s.getJsonArray("p99Ms").getLong(last));
    assertEquals(1L, s.getJsonArray("calls").getLong(last - 1));
    assertEquals(1L, s.getJsonArray("p99Ms").getLong(last - 1), "under 1 ms");
    assertNull(s.getJsonArray("p99Ms").getValue(last - 2), "an idle second has no p99");
    assertEquals((NOW - CallRing.SECONDS + 1) * 1000, s.getLong("from"));
  }

  @Test
  void aSecondFifteenMinutesLaterReusesTheSlotFromZero() {
    CallRing ring = new CallRing();
    ring.record(NOW, 5_000_000L);
    ring.record(NOW + CallRing.SECONDS, 5_000_000L);
    JsonObject s = ring.snapshot(NOW + CallRing.SECONDS);
    assertEquals(1L, s.getJsonArray("calls").getLong(CallRing.SECONDS - 1));
    assertEquals(0L, s.getJsonArray("calls").getLong(0), "the old second is outside the window");
  }

  @Test
  void bucketsDoubleFromOneMillisecond() {
    assertEquals(0, CallRing.bucket(0));
    assertEquals(1, CallRing.bucket(1));
    assertEquals(2, CallRing.bucket(3));
    assertEquals(10, CallRing.bucket(900));
    assertEquals(CallRing.BUCKETS - 1, CallRing.bucket(Long.MAX_VALUE));
  }
}
