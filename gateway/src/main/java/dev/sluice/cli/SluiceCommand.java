package dev.sluice.cli;

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
    subcommands = {StdioCommand.class, ScanCommand.class, IngestCommand.class, AuditCommand.class, SemanticCommand.class,
        TokenCommand.class, SetupAgentsCommand.class, ApprovedCommand.class})
public final class SluiceCommand implements Callable<Integer> {

  /** Exit code for a configuration or usage mistake. */
  static final int EXIT_USAGE = 2;

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: the embedded demo)")
  Path config;

  @Option(names = "--connection", paramLabel = "ID=URL",
      description = "a connection without a config file (repeatable): shop=postgresql://user@host:5432/db, "
          + "crm=mysql://user@host/db, notes=sqlite:notes.db; URL parameters such as ?sslmode=verify-full apply")
  java.util.List<String> connections = new java.util.ArrayList<>();

  @Option(names = "--port", paramLabel = "N", description = "HTTP port (0 picks a free one; default 7878)")
  Integer port;

  @Option(names = "--host", paramLabel = "ADDR", description = "bind address (default 127.0.0.1)")
  String host;

  @Option(names = "--cluster", description = "join a cluster of nodes on the clustered event bus (Hazelcast, TCP-IP)")
  boolean cluster;

  @Option(names = "--cluster-name", paramLabel = "NAME", description = "cluster name (default: cluster.name, sluice)")
  String clusterName;

  @Option(names = "--cluster-port", paramLabel = "N", description = "this node's cluster port (default: cluster.port, 5701)")
  Integer clusterPort;

  @Option(names = "--cluster-members", split = ",", paramLabel = "HOST:PORT",
      description = "every member, this one included (default: cluster.members, or this node alone)")
  java.util.List<String> clusterMembers;

  @Option(names = "--node-id", paramLabel = "ID",
      description = "this node's id in session ids (default: cluster.node_id, or derived from host:port)")
  String nodeId;

  @Option(names = "--cluster-host", paramLabel = "ADDR",
      description = "interface for cluster traffic (default: cluster.host, 127.0.0.1)")
  String clusterHost;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs one command line in this process (tests use it for the short-lived subcommands). */
  public static int run(String... args) {
    return commandLine().execute(args);
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
    SluiceConfig cfg = Startup.loadOrReport(config, port, host, connections);
    if (cfg == null) {
      return EXIT_USAGE;
    }
    try {
      cfg = cfg.withCluster(cfg.cluster().with(cluster, clusterName, clusterHost, clusterPort, clusterMembers,
          nodeId));
    } catch (dev.sluice.config.ConfigException e) {
      System.err.println("sluice: config error: " + e.getMessage());
      return EXIT_USAGE;
    }
    Gateway gateway = (cfg.cluster().enabled() ? Gateway.startClustered(cfg) : Startup.start(cfg))
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    PrintWriter out = new PrintWriter(System.out, true);
    out.println("Sluice " + Gateway.VERSION + " serving MCP at " + gateway.url());
    if (cfg.cluster().enabled()) {
      out.println("  node " + gateway.nodeId() + " of cluster " + cfg.cluster().name() + " (members "
          + cfg.cluster().members() + ", state " + cfg.state().store() + ")");
    }
    cfg.connections().forEach(c -> out.println("  connection " + c.id() + " (" + c.driver().wireName() + ")"));
    out.println("  network: " + Gateway.transport(gateway.vertx()));
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    long drainMs = cfg.server().drainTimeoutMs();
    // SIGTERM (or Ctrl-C) drains: no new sessions, in-flight calls get drainMs to finish, then stop
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        System.err.println("sluice: draining (up to " + drainMs + " ms for " + gateway.metrics().callsInFlight()
            + " calls in flight and " + gateway.metrics().relayedCallsInFlight() + " relayed to other nodes)");
        int left = gateway.drain(drainMs).toCompletionStage().toCompletableFuture()
            .get(drainMs + 5_000, TimeUnit.MILLISECONDS);
        System.err.println(left == 0 ? "sluice: drained; stopping"
            : "sluice: " + left + " calls still running after " + drainMs + " ms are cancelled; stopping");
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
