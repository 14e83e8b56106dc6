package dev.sluice.mcp.conformance;

import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.McpFeatures;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The product's transport stack with the conformance suite's fixtures registered, for
 * loadtest/mcp-clients/run-conformance.sh --fixtures. Test-only: lives in the gateway's test
 * sources and never in sluice.jar.
 */
public final class FixtureServerMain {

  private FixtureServerMain() {}

  /** Registers every fixture on a gateway's features. */
  public static final Consumer<McpFeatures> FIXTURES = f -> {
    FixtureTools.register(f.tools());
    FixtureContent.register(f);
  };

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (int i = 0; i < args.length - 1; i++) {
      if ("--port".equals(args[i])) {
        port = Integer.parseInt(args[i + 1]);
      }
    }
    SluiceConfig cfg = new SluiceConfig(ServerConfig.defaults().withPort(port),
        Files.createTempDirectory("sluice-fixtures"), List.of(), false);
    Gateway g = Gateway.start(cfg, io.vertx.core.Vertx.vertx(), true, FIXTURES)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    System.out.println("Sluice conformance fixtures serving MCP at " + g.url());
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      g.stop();
      done.countDown();
    }));
    done.await();
  }
}
