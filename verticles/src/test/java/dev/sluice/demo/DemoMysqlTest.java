package dev.sluice.demo;

import static dev.sluice.demo.DemoEngineCheck.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.sql.Dialect;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoMysqlTest {

  @TempDir
  Path dir;

  private Vertx vertx;
  private Pool pool;
  private String database;

  @BeforeEach
  void setUp() {
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    pool = MySQLBuilder.pool()
        .with(new PoolOptions().setMaxSize(2))
        .connectingTo(MySQLConnectOptions.fromUri(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)))
        .using(vertx)
        .build();
    database = TestDatabases.uniqueName("demo");
  }

  @AfterEach
  void tearDown() throws Exception {
    if (pool != null) {
      await(pool.query("DROP DATABASE IF EXISTS `" + database + "`").execute());
      await(pool.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void mariadbHoldsTheSameDataAsSqlite() throws Exception {
    Path file = dir.resolve("demo.sqlite");
    DemoDataset.writeSqlite(file);
    DemoEngineCheck check = new DemoEngineCheck(pool, Dialect.MYSQL, database);
    check.timedLoad("MariaDB", () -> DemoDataset.loadMysql(pool, database));

    check.assertSameDataAsSqliteAndGenerator(DemoSqliteTest.checksums(file));
    check.assertIntegrity();
    assertEquals(DemoEngineCheck.foreignKeyCount(), check.count(
        "SELECT COUNT(*) FROM information_schema.table_constraints WHERE table_schema = ? "
            + "AND constraint_type = 'FOREIGN KEY'", Tuple.of(database)));
    assertEquals(DemoEngineCheck.columnCount(), check.count(
        "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = ? AND column_comment <> ''",
        Tuple.of(database)));
    assertEquals(DemoSchema.TABLES.size(), check.count(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_comment <> ''",
        Tuple.of(database)));
  }

  @Test
  void loadingAgainReplacesTheTables() throws Exception {
    DemoEngineCheck check = new DemoEngineCheck(pool, Dialect.MYSQL, database);
    await(DemoDataset.loadMysql(pool, database));
    check.timedLoad("MariaDB reload", () -> DemoDataset.loadMysql(pool, database));
    assertEquals(DemoDataset.expectedRowCounts().get("orders").longValue(),
        check.count("SELECT COUNT(*) FROM `" + database + "`.orders", Tuple.tuple()));
  }
}
