package dev.sluice.engine.mysql;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.pool.PooledEngine;
import dev.sluice.sql.pool.StandingRefreshContract;
import dev.sluice.testing.TestDatabases;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;

/** On MariaDB, whose reads of base tables leave the reset out as on PostgreSQL. */
class MySqlStandingRefreshTest extends StandingRefreshContract {

  @Override
  protected void requireServer() {
    TestDatabases.requireMysql();
  }

  @Override
  protected Pool admin() {
    return MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
  }

  @Override
  protected PooledEngine adapter() {
    return new MySqlAdapter(vertx, new ConnectionConfig("refresh", Driver.MYSQL,
        TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE), null, null, null, null, 2, 8, 5_000, 100, 10_000));
  }

  @Override
  protected void createTable() throws Exception {
    admin.query("CREATE TABLE " + table + " (id INT)").execute().await(10, TimeUnit.SECONDS);
    admin.query("INSERT INTO " + table + " VALUES (1), (2), (3)").execute().await(10, TimeUnit.SECONDS);
  }

  @Override
  protected void replaceWithView() throws Exception {
    admin.query("DROP TABLE " + table).execute().await(10, TimeUnit.SECONDS);
    admin.query("CREATE VIEW " + table + " AS SELECT 1 AS id UNION ALL SELECT 2 UNION ALL SELECT 3").execute()
        .await(10, TimeUnit.SECONDS);
  }

  @Override
  protected AnalysedStatement analyse(String sql) {
    return SqlAnalyzer.analyseNow(MySqlEngine.INSTANCE.dialect(), sql);
  }
}
