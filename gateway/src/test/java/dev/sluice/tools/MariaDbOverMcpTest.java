package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;

class MariaDbOverMcpTest extends SqlOverMcpContract {

  private final String database = TestDatabases.uniqueName("mcp_my");
  private Vertx vertx;
  private Pool admin;

  @Override
  protected ConnectionConfig setUp(long deadlineMs) throws Exception {
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    admin = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    run("CREATE DATABASE " + database);
    run("CREATE TABLE " + items() + " (id INT PRIMARY KEY, name VARCHAR(64))");
    // MariaDB's sequence engine; a recursive CTE would stop at max_recursive_iterations (1000)
    run("INSERT INTO " + items() + " SELECT seq, CONCAT('item ', seq) FROM seq_1_to_5000");
    return new ConnectionConfig("db", Driver.MYSQL, TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE), null,
        null, null, "scratch", 4, 16, deadlineMs, 1_000, 10_000);
  }

  @Override
  protected void tearDown() throws Exception {
    if (admin != null) {
      run("DROP DATABASE IF EXISTS " + database);
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Override
  protected String items() {
    return database + ".items";
  }

  @Override
  protected String sleepSql(int seconds, String marker) {
    return "SELECT SLEEP(" + seconds + ") AS " + marker;
  }

  @Override
  protected String cpuSql(String marker) {
    return "SELECT BENCHMARK(10000000000, MD5('x')) AS " + marker;
  }

  @Override
  protected int running(String marker) throws Exception {
    // prepared statements show as command 'Execute', so match on the statement text only
    return admin.query("SELECT count(*) FROM information_schema.processlist WHERE info LIKE '%"
        + marker + "%' AND info NOT LIKE '%processlist%'").execute().await(5, TimeUnit.SECONDS)
        .iterator().next().getInteger(0);
  }

  private void run(String sql) throws Exception {
    admin.query(sql).execute().await(30, TimeUnit.SECONDS);
  }
}
