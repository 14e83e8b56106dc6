package dev.sluice.engine;

import dev.sluice.catalog.Introspection;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.analysis.SqlDialect;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * One database engine, everything Sluice knows of it in one package: how its SQL reads (lexer
 * rules, functions), which of its relations are catalog, where a bare name lives, how to scan its
 * catalog, and how to run a statement on it. Registered by driver kind in {@link Engines}; adding
 * an engine is adding a package and one line there.
 */
public interface Engine {

  Driver driver();

  SqlDialect dialect();

  /** The schema (or database) a bare table name resolves to on this connection. */
  String defaultSchema(ConnectionConfig connection);

  /**
   * Whether a relation belongs to the engine's catalog (information_schema, pg_catalog, mysql,
   * sqlite_master ...): reading it would show what a table policy hides.
   */
  boolean catalogRelation(String schema, String name);

  /** The catalog queries the scanner sends for this connection. */
  Introspection introspection(ConnectionConfig connection);

  /**
   * The executor side of one configured connection; started by the executor verticle on its
   * context.
   */
  EngineConnection connect(Vertx vertx, Context context, ConnectionConfig connection);
}
