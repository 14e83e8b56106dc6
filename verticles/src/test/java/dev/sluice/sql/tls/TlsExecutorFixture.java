package dev.sluice.sql.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Connections to a throwaway TLS-only server, built the way the gateway builds them (YAML through
 * {@link ConfigLoader}, so URL checks and certificate paths relative to the config file apply),
 * served by the real executor verticle over the bus.
 */
final class TlsExecutorFixture implements AutoCloseable {

  private final Vertx vertx = Vertx.vertx();
  private final Driver driver;
  private String deployment;

  TlsExecutorFixture(Driver driver) {
    this.driver = driver;
  }

  /** Deploys the executor for {@code urls} (connection id → URL) from a config in {@code configDir}. */
  void deploy(Path configDir, Map<String, String> urls, Function<List<ConnectionConfig>, VerticleBase> verticle)
      throws Exception {
    StringBuilder yaml = new StringBuilder("connections:\n");
    urls.forEach((id, url) -> yaml.append("  - id: ").append(id).append("\n    driver: ").append(driver.wireName())
        .append("\n    url: \"").append(url).append("\"\n    query_timeout_ms: 10000\n"));
    List<ConnectionConfig> connections = ConfigLoader.fromYaml(yaml.toString(), Map.of(), configDir).connections();
    deployment = vertx.deployVerticle(verticle.apply(connections)).await(60, TimeUnit.SECONDS);
  }

  JsonObject query(String connectionId, String sql) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver),
            SqlBus.queryRequest(connectionId, UUID.randomUUID().toString(), sql, 10),
            new DeliveryOptions().setSendTimeout(30_000))
        .map(m -> m.body()).await(40, TimeUnit.SECONDS);
  }

  /** The first cell of the first row. */
  String value(String connectionId, String sql) throws Exception {
    return String.valueOf(query(connectionId, sql).getJsonArray("rows").getJsonArray(0).getValue(0));
  }

  SqlError refused(String connectionId) {
    try {
      JsonObject r = query(connectionId, "SELECT 1");
      return fail(connectionId + " should have been refused, got " + r.encode());
    } catch (Exception e) {
      return SqlError.from(e);
    }
  }

  /** What connection_list and /health show for a connection. */
  JsonObject info(String connectionId) throws Exception {
    return vertx.eventBus().<JsonObject>request(SqlBus.info(driver), new JsonObject().put("connectionId", connectionId))
        .map(m -> m.body()).await(30, TimeUnit.SECONDS);
  }

  static void assertConnectionError(SqlError e, String... fragments) {
    assertEquals("connection_error", e.type().wireName(), e.getMessage());
    for (String f : fragments) {
      if (!e.getMessage().contains(f)) {
        fail("expected \"" + f + "\" in: " + e.getMessage());
      }
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (deployment != null) {
        vertx.undeploy(deployment).await(20, TimeUnit.SECONDS);
      }
    } finally {
      vertx.close().await(20, TimeUnit.SECONDS);
    }
  }
}
