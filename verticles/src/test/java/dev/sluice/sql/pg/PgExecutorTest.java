package dev.sluice.sql.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineExecutorContract;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestDatabases;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.PoolOptions;
import java.util.List;

class PgExecutorTest extends EngineExecutorContract {

  private final String schema = TestDatabases.uniqueName("pgexec");

  @Override
  protected Driver driver() {
    return Driver.POSTGRES;
  }

  @Override
  protected void createScratch() throws Exception {
    TestDatabases.requirePostgres();
    admin = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    exec("CREATE SCHEMA " + schema);
  }

  @Override
  protected void dropScratch() throws Exception {
    exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  @Override
  protected ConnectionConfig config(String id, long timeoutMs, int poolSize, int maxWaitQueue) {
    return new ConnectionConfig(id, Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null,
        null, poolSize, maxWaitQueue, timeoutMs, 100, 10_000);
  }

  @Override
  protected SqlExecutorVerticle verticle(List<ConnectionConfig> configs) {
    return new PgExecutorVerticle(configs);
  }

  @Override
  protected String table(String name) {
    return schema + "." + name;
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
  protected String activitySql(String marker) {
    return "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()";
  }

  @Override
  protected List<String> bigTableSql(int rows) {
    return List.of("CREATE TABLE " + table("big") + " AS SELECT g AS n, md5(g::text) AS label FROM generate_series(1, "
        + rows + ") g");
  }

}
