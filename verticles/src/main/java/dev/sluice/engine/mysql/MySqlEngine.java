package dev.sluice.engine.mysql;

import dev.sluice.catalog.Introspection;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engine;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.analysis.SqlDialect;
import dev.sluice.sql.pool.PooledExecution;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/** MySQL and MariaDB, registered as driver {@code mysql} (the flavour is detected at connect). */
public final class MySqlEngine implements Engine {

  public static final MySqlEngine INSTANCE = new MySqlEngine();

  private static final Set<String> CATALOG_SCHEMAS = Set.of("information_schema", "mysql", "performance_schema",
      "sys");

  private MySqlEngine() {}

  @Override
  public Driver driver() {
    return Driver.MYSQL;
  }

  @Override
  public SqlDialect dialect() {
    return MySqlDialect.INSTANCE;
  }

  /** The database of the connection URL. */
  @Override
  public String defaultSchema(ConnectionConfig c) {
    String path = c.url() == null ? "" : URI.create(c.url()).getPath();
    return path == null ? "" : path.replaceFirst("^/", "");
  }

  @Override
  public boolean catalogRelation(String schema, String name) {
    return schema != null && CATALOG_SCHEMAS.contains(schema.toLowerCase(Locale.ROOT));
  }

  @Override
  public Introspection introspection(ConnectionConfig c) {
    return new MySqlIntrospection(c.schemas().isEmpty() ? MySqlIntrospection.urlDatabase(c.url()) : c.schemas());
  }

  @Override
  public EngineConnection connect(Vertx vertx, Context context, ConnectionConfig connection) {
    return new PooledExecution(vertx, new MySqlAdapter(vertx, connection));
  }
}
