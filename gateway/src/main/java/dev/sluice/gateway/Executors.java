package dev.sluice.gateway;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.engine.Engines;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.SqlRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;

/**
 * Deploys one executor verticle per engine that has configured connections. Exactly one instance
 * per engine: an executor keeps its in-flight queries (for cancel) and its pools to itself.
 */
final class Executors {

  private Executors() {}

  static Future<Void> deploy(Vertx vertx, SluiceConfig config) {
    SqlRequest.registerCodec(vertx);
    List<Future<String>> all = new ArrayList<>();
    for (Driver driver : Driver.values()) {
      List<ConnectionConfig> mine = config.connections().stream().filter(c -> c.driver() == driver).toList();
      if (!mine.isEmpty()) {
        all.add(vertx.deployVerticle(new SqlExecutorVerticle(Engines.of(driver), mine)));
      }
    }
    return Future.all(all).mapEmpty();
  }
}
