package dev.sluice.gateway;

import dev.sluice.config.SluiceConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Deploys one executor verticle per driver that has configured connections. */
final class Executors {

  private Executors() {}

  static Future<Void> deploy(Vertx vertx, SluiceConfig config) {
    // filled in as the executors land: postgres, mysql, sqlite
    return Future.succeededFuture();
  }
}
