package dev.sluice.observability;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated so far by the JVM's live threads (HotSpot's per-thread TLAB accounting). The
 * event loops and workers live as long as the gateway, so over a load test the change of this
 * sum divided by the calls is the allocation per call (loadtest/bin/peers.sh prints it); a thread
 * that ends takes its share with it, so it is not a counter for alerts.
 */
final class AllocatedBytes {

  private final com.sun.management.ThreadMXBean threads;

  AllocatedBytes() {
    threads = ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
        && t.isThreadAllocatedMemorySupported() ? t : null;
    if (threads != null && !threads.isThreadAllocatedMemoryEnabled()) {
      threads.setThreadAllocatedMemoryEnabled(true);
    }
  }

  /** The sum over live threads, or NaN where the JVM does not account allocations per thread. */
  double sum() {
    if (threads == null) {
      return Double.NaN;
    }
    long total = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      if (bytes > 0) {
        total += bytes;
      }
    }
    return total;
  }
}
