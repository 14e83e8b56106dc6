package dev.sluice.testing;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.Driver;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo shop loaded three times for one test class: a SQLite file in a fresh directory, a
 * PostgreSQL schema and a MariaDB database of their own, reachable as connections "lite", "pg"
 * and "my". {@link #close()} stops the gateway {@link #serve} started on them, then drops what it
 * created.
 */
public final class DemoOnThreeEngines implements AutoCloseable {

  public final Path dir;
  public final String schema;
  public final String database;
  private final Vertx vertx;
  private final Pool pg;
  private final Pool my;
  private TestGateway gateway;

  private DemoOnThreeEngines(String prefix) throws Exception {
    TestDatabases.requirePostgres();
    TestDatabases.requireMysql();
    dir = Files.createTempDirectory("sluice-" + prefix);
    schema = TestDatabases.uniqueName(prefix + "_pg");
    database = TestDatabases.uniqueName(prefix + "_my");
    DemoDataset.writeSqlite(dir.resolve("shop.sqlite"));
    vertx = Vertx.vertx();
    pg = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    my = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    DemoDataset.loadPostgres(pg, schema).await(2, TimeUnit.MINUTES);
    DemoDataset.loadMysql(my, database).await(3, TimeUnit.MINUTES);
  }

  /** Loads the demo; {@code prefix} names the temp directory, the schema and the database. */
  public static DemoOnThreeEngines load(String prefix) throws Exception {
    return new DemoOnThreeEngines(prefix);
  }

  /** lite, pg (scoped to the schema) and my, each with 2 connections and this deadline. */
  public List<ConnectionConfig> connections(int deadlineMs) {
    return List.of(
        new ConnectionConfig("lite", Driver.SQLITE, null, dir.resolve("shop.sqlite").toString(), null, null, null, 2,
            64, deadlineMs, 1_000, 10_000),
        new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null,
            null, 2, 64, deadlineMs, 1_000, 10_000).withSchemas(List.of(schema)),
        new ConnectionConfig("my", Driver.MYSQL, TestDatabases.mysqlUrl(database), null, null, null, null, 2, 64,
            deadlineMs, 1_000, 10_000));
  }

  /** A gateway on {@code config} (over these connections, as a rule), stopped by {@link #close()}. */
  public TestGateway serve(SluiceConfig config) throws Exception {
    gateway = TestGateway.start(config, null);
    return gateway;
  }

  /** Runs one statement as the admin of the "pg" or "my" connection's server. */
  public void exec(String connection, String sql) throws Exception {
    (connection.equals("pg") ? pg : my).query(sql).execute().await(60, TimeUnit.SECONDS);
  }

  /** {@code table} qualified as the connection needs it. */
  public String table(String connection, String table) {
    return switch (connection) {
      case "pg" -> schema + "." + table;
      case "my" -> database + "." + table;
      default -> table;
    };
  }

  @Override
  public void close() throws Exception {
    try {
      if (gateway != null) {
        gateway.close();
      }
      pg.query("DROP SCHEMA IF EXISTS " + schema + " CASCADE").execute().await(30, TimeUnit.SECONDS);
      my.query("DROP DATABASE IF EXISTS " + database).execute().await(30, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
