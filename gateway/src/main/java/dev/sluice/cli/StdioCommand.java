package dev.sluice.cli;

import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.stdio.StdioTransport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice stdio}: MCP over stdin/stdout for clients that spawn their servers. */
@Command(name = "stdio", mixinStandardHelpOptions = true,
    description = "Serve MCP over stdin/stdout (logs go to stderr).")
final class StdioCommand implements Callable<Integer> {

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: the embedded demo)")
  Path config;

  @Option(names = "--connection", paramLabel = "ID=URL",
      description = "a connection without a config file (repeatable), as for the HTTP server")
  java.util.List<String> connections = new java.util.ArrayList<>();

  @Override
  public Integer call() throws Exception {
    // no HTTP clients here; the listener still runs (loopback, free port) for /health and /metrics
    SluiceConfig cfg = Startup.loadOrReport(config, 0, "127.0.0.1", connections);
    if (cfg == null) {
      return SluiceCommand.EXIT_USAGE;
    }
    Gateway gateway = Startup.start(cfg).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    System.err.println("sluice: serving MCP on stdio");
    new StdioTransport(gateway, System.in, System.out).run()
        .toCompletionStage().toCompletableFuture().get();
    gateway.stop().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    return 0;
  }
}
