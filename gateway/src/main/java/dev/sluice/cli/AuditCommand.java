package dev.sluice.cli;

import dev.sluice.audit.AuditQuery;
import dev.sluice.config.SluiceConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice audit query ...}: reads the audit trail back. */
@Command(name = "audit", mixinStandardHelpOptions = true, description = "Read the audit trail.",
    subcommands = {AuditCommand.Query.class})
final class AuditCommand extends CommandGroup {

  @Command(name = "query", mixinStandardHelpOptions = true,
      description = "Print the audit records (JSON Lines, oldest first) that match every filter given.")
  static final class Query implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (its audit.dir is read)")
    Path config;

    @Option(names = "--since", paramLabel = "WHEN", description = "ISO instant, date, or 90m / 24h / 7d back")
    String since;

    @Option(names = "--principal", paramLabel = "NAME")
    String principal;

    @Option(names = "--tool", paramLabel = "NAME")
    String tool;

    @Option(names = "--outcome", paramLabel = "ok|error|cancelled")
    String outcome;

    @Override
    public Integer call() throws Exception {
      SluiceConfig cfg = Startup.loadOrReport(config, 0, "127.0.0.1");
      if (cfg == null) {
        return SluiceCommand.EXIT_USAGE;
      }
      Instant from;
      try {
        from = since == null ? null : AuditQuery.parseSince(since, Instant.now());
      } catch (IllegalArgumentException e) {
        System.err.println("sluice: " + e.getMessage());
        return SluiceCommand.EXIT_USAGE;
      }
      long n = new AuditQuery(from, principal, tool, outcome).run(cfg.audit().dir(), r -> System.out.println(r.encode()));
      System.err.println(n + " records");
      return 0;
    }
  }
}
