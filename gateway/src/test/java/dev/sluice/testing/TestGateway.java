package dev.sluice.testing;

import dev.sluice.config.CatalogConfig;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import dev.sluice.mcp.McpFeatures;
import dev.sluice.sql.Driver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** Starts a real gateway on a free loopback port for a test, and stops it (awaited). */
public final class TestGateway implements AutoCloseable {

  public final Gateway gateway;

  private TestGateway(Gateway gateway) {
    this.gateway = gateway;
  }

  /** A gateway config for tests; no start-up catalog scan (catalog tests turn it on or scan explicitly). */
  public static SluiceConfig config(ServerConfig server, List<ConnectionConfig> connections, Path stateDir) {
    return new SluiceConfig(server.withPort(0), stateDir, connections, false)
        .withCatalog(CatalogConfig.defaults().withScanOnStart(false));
  }

  /**
   * A gateway behind bearer token {@code token} whose one connection, "db", is a SQLite file in
   * {@code stateDir} holding an empty table {@code t (id INTEGER PRIMARY KEY)}.
   */
  public static TestGateway onSqliteTable(Path stateDir, String token) throws Exception {
    Path db = stateDir.resolve("db.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    }
    ConnectionConfig lite = new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, null, 1, 8,
        10_000, 100, 1_000);
    return start(config(ServerConfig.defaults().withToken(token), List.of(lite), stateDir), null);
  }

  public static TestGateway start(SluiceConfig config, Consumer<McpFeatures> extra) throws Exception {
    return start(config, io.vertx.core.Vertx.vertx(), extra);
  }

  /**
   * A gateway on a Vert.x instance the test made (e.g. with a tight blocked-thread check); the
   * gateway owns it and closes it on {@link #close()}.
   */
  public static TestGateway start(SluiceConfig config, io.vertx.core.Vertx vertx, Consumer<McpFeatures> extra)
      throws Exception {
    Gateway g = Gateway.start(config, vertx, true, extra)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    return new TestGateway(g);
  }

  public String url() {
    return gateway.url();
  }

  public McpHttpClient client() {
    return new McpHttpClient(url());
  }

  /** An initialized session presenting {@code token} (a principal's bearer token). */
  public McpHttpClient session(String token) throws Exception {
    McpHttpClient c = client();
    c.token = token;
    c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
    return c;
  }

  @Override
  public void close() throws Exception {
    gateway.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
