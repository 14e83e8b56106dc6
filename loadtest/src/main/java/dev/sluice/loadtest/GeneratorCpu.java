package dev.sluice.loadtest;

import java.lang.management.ManagementFactory;

/**
 * CPU seconds used by this load-generator process. On a shared machine the generator competes
 * with the gateway for cores, so the report shows both to make saturation readable.
 */
final class GeneratorCpu {

  private GeneratorCpu() {}

  static double seconds() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime() / 1e9;
    }
    return -1;
  }
}
