package dev.sluice.sql.mysql;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineAdapter;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlExecutorVerticle;
import java.util.List;

/**
 * Serves {@link SqlBus} execute/cancel/info for every MySQL/MariaDB connection ({@link
 * Driver#MYSQL}); the flavour is detected from {@code SELECT VERSION()} when the pool starts.
 */
public final class MySqlExecutorVerticle extends SqlExecutorVerticle {

  /** @param connections the {@link Driver#MYSQL} connections this verticle serves */
  public MySqlExecutorVerticle(List<ConnectionConfig> connections) {
    super(Driver.MYSQL, connections);
  }

  @Override
  protected EngineAdapter adapter(ConnectionConfig cfg) {
    return new MySqlEngine(vertx, cfg);
  }
}
