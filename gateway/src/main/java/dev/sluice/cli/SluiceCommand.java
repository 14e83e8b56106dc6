package dev.sluice.cli;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar sluice.jar [--config FILE] [--port N] [--host H]} serves MCP over HTTP; the
 * subcommands cover the other entry points. A user mistake prints one line and exits 2; it never
 * shows a stack trace.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = SluiceCommand.Version.class,
    description = "MCP query gateway: bounded, read-only SQL for AI agents.",
    subcommands = {StdioCommand.class})
public final class SluiceCommand implements Callable<Integer> {

  /** Exit code for a configuration or usage mistake. */
  static final int EXIT_USAGE = 2;

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: the embedded demo)")
  Path config;

  @Option(names = "--port", paramLabel = "N", description = "HTTP port (0 picks a free one; default 7878)")
  Integer port;

  @Option(names = "--host", paramLabel = "ADDR", description = "bind address (default 127.0.0.1)")
  String host;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new SluiceCommand());
    cl.setExecutionExceptionHandler((ex, line, parse) -> {
      line.getErr().println("sluice: " + (ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage()));
      return 1;
    });
    return cl;
  }

  @Override
  public Integer call() throws Exception {
    SluiceConfig cfg;
    try {
      cfg = Startup.load(config, port, host);
    } catch (ConfigException e) {
      System.err.println("sluice: config error: " + e.getMessage());
      return EXIT_USAGE;
    }
    Gateway gateway = Startup.start(cfg).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    PrintWriter out = new PrintWriter(System.out, true);
    out.println("Sluice " + Gateway.VERSION + " serving MCP at " + gateway.url());
    cfg.connections().forEach(c -> out.println("  connection " + c.id() + " (" + c.driver().wireName() + ")"));
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        gateway.stop().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // exiting anyway
      }
      stopped.countDown();
    }, "sluice-shutdown"));
    stopped.await();
    return 0;
  }

  /** Reports the version baked into the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sluice " + Gateway.VERSION};
    }
  }
}
