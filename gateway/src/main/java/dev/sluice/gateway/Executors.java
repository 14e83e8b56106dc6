package dev.sluice.gateway;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.mysql.MySqlExecutorVerticle;
import dev.sluice.sql.pg.PgExecutorVerticle;
import dev.sluice.sqlite.SqliteExecutorVerticle;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Deploys one executor verticle per driver that has configured connections. Exactly one instance
 * per driver: an executor keeps its in-flight queries (for cancel) and its pools to itself.
 */
final class Executors {

  private Executors() {}

  static Future<Void> deploy(Vertx vertx, SluiceConfig config) {
    List<Future<String>> all = new ArrayList<>();
    deploy(vertx, config, Driver.POSTGRES, PgExecutorVerticle::new, all);
    deploy(vertx, config, Driver.MYSQL, MySqlExecutorVerticle::new, all);
    deploy(vertx, config, Driver.SQLITE, SqliteExecutorVerticle::new, all);
    return Future.all(all).mapEmpty();
  }

  private static void deploy(Vertx vertx, SluiceConfig config, Driver driver,
      Function<List<ConnectionConfig>, VerticleBase> factory, List<Future<String>> into) {
    List<ConnectionConfig> mine = config.connections().stream().filter(c -> c.driver() == driver).toList();
    if (!mine.isEmpty()) {
      into.add(vertx.deployVerticle(factory.apply(mine)));
    }
  }
}
