package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineExecutorContract;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MySqlExecutorTest extends EngineExecutorContract {

  private final String database = TestDatabases.uniqueName("myexec");

  @Override
  protected Driver driver() {
    return Driver.MYSQL;
  }

  @Override
  protected void createScratch() throws Exception {
    TestDatabases.requireMysql();
    Pool boot = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    boot.query("CREATE DATABASE " + database).execute().await(10, TimeUnit.SECONDS);
    boot.close().await(5, TimeUnit.SECONDS);
    admin = MySQLBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(TestDatabases.mysqlUrl(database)).using(vertx).build();
  }

  @Override
  protected void dropScratch() throws Exception {
    exec("DROP DATABASE IF EXISTS " + database);
  }

  @Override
  protected ConnectionConfig config(String id, long timeoutMs, int poolSize, int maxWaitQueue) {
    return new ConnectionConfig(id, Driver.MYSQL, TestDatabases.mysqlUrl(database), null, null, null,
        null, poolSize, maxWaitQueue, timeoutMs, 100, 10_000);
  }

  @Override
  protected SqlExecutorVerticle verticle(List<ConnectionConfig> configs) {
    return new SqlExecutorVerticle(dev.sluice.engine.mysql.MySqlEngine.INSTANCE, configs);
  }

  /** The session set-up is one multi-statement round trip; each of its parts must still hold. */
  @Test
  void sessionSetupIsOneRoundTripThatStillSetsEverything() throws Exception {
    SqlExecutorVerticle v = deploy(config("setup", 30_000, 1, 8));
    boolean mariadb = count("SELECT VERSION() LIKE '%MariaDB%'") == 1;
    // MySQL has neither @@in_transaction nor max_statement_time (its deadline is in milliseconds)
    JsonObject r = unguarded(v, "setup", mariadb
        ? "SELECT @@in_transaction AS tx, @@max_statement_time * 1000 AS deadline_ms"
        : "SELECT 1 AS tx, @@max_execution_time AS deadline_ms");
    JsonArray row = r.getJsonArray("rows").getJsonArray(0);
    assertEquals(1, Integer.parseInt(String.valueOf(row.getValue(0))), "inside the START TRANSACTION: " + r);
    assertEquals(30_000, Double.parseDouble(String.valueOf(row.getValue(1))), 0.5, "the call's deadline: " + r);
  }

  @Override
  protected List<String[]> sessionState() {
    return List.of(
        new String[] {"SELECT GET_LOCK('sluice_leak', 0)", "SELECT IS_USED_LOCK('sluice_leak') IS NOT NULL", "1"},
        new String[] {"SET @leak = 42", "SELECT @leak", "42"},
        new String[] {"SELECT @leak2 := 43", "SELECT @leak2", "43"},
        new String[] {"SET SESSION sql_mode = 'ANSI_QUOTES'", "SELECT @@SESSION.sql_mode LIKE '%ANSI_QUOTES%'", "1"},
        new String[] {"SET SESSION TRANSACTION READ WRITE", "SELECT @@SESSION.tx_read_only", "0"},
        new String[] {"SET SESSION time_zone = '+05:00'", "SELECT @@SESSION.time_zone", "+05:00"},
        new String[] {"PREPARE leak FROM 'SELECT 1'", "EXECUTE leak", "1"});
  }

  @Override
  protected String heldLocksSql() {
    return "SELECT COUNT(*) FROM (SELECT IS_USED_LOCK('sluice_leak') AS l) x WHERE l IS NOT NULL";
  }

  @Override
  protected String table(String name) {
    return name;
  }

  @Override
  protected String sleepSql(int seconds, String marker) {
    return "SELECT SLEEP(" + seconds + ") AS " + marker;
  }

  @Override
  protected String cpuSql(String marker) {
    return "SELECT BENCHMARK(10000000000, MD5('sluice')) AS " + marker;
  }

  @Override
  protected String activitySql(String marker) {
    return "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%" + marker
        + "%' AND INFO NOT LIKE '%PROCESSLIST%'";
  }

  @Override
  protected List<String> bigTableSql(int rows) {
    String digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
        + " UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
    return List.of("CREATE TABLE big (n INT PRIMARY KEY, label VARCHAR(40))",
        "INSERT INTO big SELECT n, MD5(n) FROM (SELECT a.d + b.d * 10 + c.d * 100 + e.d * 1000 + f.d * 10000 + 1 AS n FROM "
            + digits + " a, " + digits + " b, " + digits + " c, " + digits + " e, " + digits + " f) t WHERE n <= " + rows);
  }

}
