package dev.sluice.loadtest;

import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A gateway with no database and the load-test stand-in tools (load_progress, load_deadline,
 * load_hang), for exercising the load generator while the CLI or the SQL executors are not
 * available. Prints the same "serving MCP at" line as the real CLI; stops on SIGTERM.
 */
public final class DevGateway {

  private DevGateway() {}

  public static void main(String[] args) throws Exception {
    SluiceConfig config = new SluiceConfig(ServerConfig.defaults().withPort(0),
        Files.createTempDirectory("sluice-dev"), List.of(), false);
    Gateway gw = Gateway.start(config, Vertx.vertx(), true, f -> f.tools()
            .register(LoadTestTools.progress()).register(LoadTestTools.deadline()).register(LoadTestTools.hang()))
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        gw.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // exiting anyway
      }
    }));
    System.out.println("Sluice dev gateway " + Gateway.VERSION + " serving MCP at " + gw.url());
    Thread.currentThread().join();
  }
}
