package dev.sluice.engine.postgres;

import dev.sluice.catalog.Introspection;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engine;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.analysis.SqlDialect;
import dev.sluice.sql.pool.PooledExecution;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Locale;
import java.util.Set;

/** PostgreSQL, registered as driver {@code postgres}. */
public final class PostgresEngine implements Engine {

  public static final PostgresEngine INSTANCE = new PostgresEngine();

  private static final Set<String> CATALOG_SCHEMAS = Set.of("information_schema", "pg_catalog", "pg_toast");

  private PostgresEngine() {}

  @Override
  public Driver driver() {
    return Driver.POSTGRES;
  }

  @Override
  public SqlDialect dialect() {
    return PostgresDialect.INSTANCE;
  }

  @Override
  public String defaultSchema(ConnectionConfig connection) {
    return "public";
  }

  /** information_schema, pg_catalog, pg_toast, and the pg_* views a bare name reaches through the search path. */
  @Override
  public boolean catalogRelation(String schema, String name) {
    return schema != null && CATALOG_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT))
        || name.toLowerCase(Locale.ROOT).startsWith("pg_");
  }

  @Override
  public Introspection introspection(ConnectionConfig connection) {
    return new PgIntrospection(connection.schemas());
  }

  @Override
  public EngineConnection connect(Vertx vertx, Context context, ConnectionConfig connection) {
    return new PooledExecution(vertx, new PgAdapter(vertx, connection));
  }
}
