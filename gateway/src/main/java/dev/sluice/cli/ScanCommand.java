package dev.sluice.cli;

import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice scan <connectionId>}: refreshes one connection's catalog snapshot now. */
@Command(name = "scan", mixinStandardHelpOptions = true,
    description = "Scan one connection's schema and value profile into a new catalog snapshot. "
        + "A running gateway with the same state directory uses it on its next call.")
final class ScanCommand implements Callable<Integer> {

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: the embedded demo)")
  Path config;

  @Parameters(paramLabel = "CONNECTION_ID", description = "the connection to scan")
  String connectionId;

  /** Sum of the heap pools' peaks: an upper bound of what the scan needed at once. */
  private static long heapPeakMiB() {
    long bytes = 0;
    for (java.lang.management.MemoryPoolMXBean pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getPeakUsage() != null) {
        bytes += pool.getPeakUsage().getUsed();
      }
    }
    return bytes >> 20;
  }

  @Override
  public Integer call() throws Exception {
    SluiceConfig cfg = Startup.loadOrReport(config, 0, "127.0.0.1");
    if (cfg == null) {
      return SluiceCommand.EXIT_USAGE;
    }
    if (cfg.connection(connectionId).isEmpty()) {
      System.err.println("sluice: unknown connection '" + connectionId + "'; configured: "
          + cfg.connections().stream().map(c -> c.id()).toList());
      return SluiceCommand.EXIT_USAGE;
    }
    try {
      JsonObject s = OneOffScan.run(cfg, connectionId);
      System.out.println("scanned " + connectionId + ": " + s.getInteger("tables") + " tables, "
          + s.getInteger("problems") + " problems, " + s.getLong("scanMs") + " ms, syncId " + s.getString("syncId")
          + ", heap peak " + heapPeakMiB() + " MiB");
      return 0;
    } catch (Exception e) {
      System.err.println("sluice: scan of " + connectionId + " failed: " + SqlError.from(e).getMessage());
      return 1;
    }
  }
}
