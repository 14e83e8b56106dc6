package dev.sluice.sql.pg;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineAdapter;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlExecutorVerticle;
import java.util.List;

/**
 * Serves {@link SqlBus} execute/cancel/info for every PostgreSQL connection: READ ONLY
 * transactions, {@code statement_timeout} plus cancel requests for the deadline, cursors for
 * bounded fetches.
 */
public final class PgExecutorVerticle extends SqlExecutorVerticle {

  /** @param connections the {@link Driver#POSTGRES} connections this verticle serves */
  public PgExecutorVerticle(List<ConnectionConfig> connections) {
    super(Driver.POSTGRES, connections);
  }

  @Override
  protected EngineAdapter adapter(ConnectionConfig cfg) {
    return new PgEngine(vertx, cfg);
  }
}
