package dev.sluice.testing;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.McpFeatures;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Starts a real gateway on a free loopback port for a test, and stops it (awaited). */
public final class TestGateway implements AutoCloseable {

  public final Gateway gateway;

  private TestGateway(Gateway gateway) {
    this.gateway = gateway;
  }

  public static SluiceConfig config(ServerConfig server, List<ConnectionConfig> connections, Path stateDir) {
    return new SluiceConfig(server.withPort(0), stateDir, connections, false);
  }

  public static TestGateway start(SluiceConfig config, Consumer<McpFeatures> extra) throws Exception {
    Gateway g = Gateway.start(config, io.vertx.core.Vertx.vertx(), true, extra)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    return new TestGateway(g);
  }

  public String url() {
    return gateway.url();
  }

  public McpHttpClient client() {
    return new McpHttpClient(url());
  }

  @Override
  public void close() throws Exception {
    gateway.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
