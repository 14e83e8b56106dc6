package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;

class PostgresOverMcpTest extends SqlOverMcpContract {

  private final String schema = TestDatabases.uniqueName("mcp_pg");
  private Vertx vertx;
  private Pool admin;

  @Override
  protected ConnectionConfig setUp(long deadlineMs) throws Exception {
    TestDatabases.requirePostgres();
    vertx = Vertx.vertx();
    admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    run("CREATE SCHEMA " + schema);
    run("CREATE TABLE " + items() + " AS SELECT g AS id, 'item ' || g AS name FROM generate_series(1, 5000) g");
    return new ConnectionConfig("db", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null,
        null, null, "scratch", 4, 16, deadlineMs, 1_000, 10_000);
  }

  @Override
  protected void tearDown() throws Exception {
    if (admin != null) {
      run("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Override
  protected String items() {
    return schema + ".items";
  }

  @Override
  protected String sleepSql(int seconds, String marker) {
    return "SELECT pg_sleep(" + seconds + ") AS " + marker;
  }

  @Override
  protected String cpuSql(String marker) {
    return "SELECT count(*) AS " + marker + " FROM generate_series(1, 10000000000::bigint)";
  }

  @Override
  protected int running(String marker) throws Exception {
    return admin.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%"
        + marker + "%' AND pid <> pg_backend_pid()").execute().await(5, TimeUnit.SECONDS)
        .iterator().next().getInteger(0);
  }

  private void run(String sql) throws Exception {
    admin.query(sql).execute().await(30, TimeUnit.SECONDS);
  }
}
