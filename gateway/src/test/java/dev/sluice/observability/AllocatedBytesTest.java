package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The allocation gauge behind peers.sh's "KB allocated per call". */
class AllocatedBytesTest {

  static volatile Object sink;

  @Test
  void growsByWhatThisThreadAllocates() {
    AllocatedBytes allocated = new AllocatedBytes();
    double before = allocated.sum();
    for (int i = 0; i < 64; i++) {
      sink = new byte[1 << 20];
    }
    double grown = allocated.sum() - before;
    assertTrue(grown >= 64L << 20, "64 MB allocated, the gauge grew by " + grown);
  }
}
