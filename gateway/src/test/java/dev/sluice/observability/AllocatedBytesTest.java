package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The allocation gauge behind peers.sh's "KB allocated per call". */
class AllocatedBytesTest {

  static volatile Object sink;

  /**
   * A thread that ends meanwhile takes its share out of the sum (the gauge is over live threads),
   * and the test JVM runs other test classes' threads down: a round in which one ended is measured
   * again.
   */
  @Test
  void growsByWhatThisThreadAllocates() {
    AllocatedBytes allocated = new AllocatedBytes();
    var mx = java.lang.management.ManagementFactory.getThreadMXBean();
    for (int round = 0; ; round++) {
      java.util.Set<Long> live = ids(mx.getAllThreadIds());
      double before = allocated.sum();
      for (int i = 0; i < 64; i++) {
        sink = new byte[1 << 20];
      }
      double grown = allocated.sum() - before;
      if (ids(mx.getAllThreadIds()).containsAll(live) || round == 9) {
        assertTrue(grown >= 64L << 20, "64 MB allocated, the gauge grew by " + grown);
        return;
      }
    }
  }

  private static java.util.Set<Long> ids(long[] ids) {
    return java.util.Arrays.stream(ids).boxed().collect(java.util.stream.Collectors.toSet());
  }
}
