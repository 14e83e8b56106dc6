package dev.sluice.engine.postgres;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.pool.PooledEngine;
import dev.sluice.sql.pool.StandingRefreshContract;
import dev.sluice.testing.TestDatabases;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;

class PgStandingRefreshTest extends StandingRefreshContract {

  @Override
  protected void requireServer() {
    TestDatabases.requirePostgres();
  }

  @Override
  protected Pool admin() {
    return PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
  }

  @Override
  protected PooledEngine adapter() {
    return new PgAdapter(vertx, new ConnectionConfig("refresh", Driver.POSTGRES,
        TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null, null, 2, 8, 5_000, 100, 10_000));
  }

  @Override
  protected void createTable() throws Exception {
    admin.query("CREATE TABLE " + table + " AS SELECT g AS id FROM generate_series(1, 3) g").execute()
        .await(10, TimeUnit.SECONDS);
  }

  @Override
  protected void replaceWithView() throws Exception {
    admin.query("DROP TABLE " + table).execute().await(10, TimeUnit.SECONDS);
    admin.query("CREATE VIEW " + table + " AS SELECT g AS id FROM generate_series(1, 3) g").execute()
        .await(10, TimeUnit.SECONDS);
  }

  @Override
  protected AnalysedStatement analyse(String sql) {
    return SqlAnalyzer.analyseNow(PostgresEngine.INSTANCE.dialect(), sql);
  }
}
