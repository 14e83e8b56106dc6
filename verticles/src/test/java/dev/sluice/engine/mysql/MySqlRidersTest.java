package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.engine.Engines;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Small session-neutral reads riding one MariaDB connection (root): each rider its own rows, and
 * what the riders before it left on the session, their row counts and warnings, never reaches a
 * rider that reads them.
 */
class MySqlRidersTest {

  private static final String DATABASE = TestDatabases.uniqueName("myriders");
  private static final String ID = "riders";
  private static Vertx vertx;
  private static Pool admin;
  private static boolean mariadb;

  @BeforeAll
  static void setUp() throws Exception {
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    admin = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    exec("CREATE DATABASE " + DATABASE);
    exec("CREATE TABLE " + DATABASE + ".items (id INT PRIMARY KEY, name VARCHAR(20))");
    exec("INSERT INTO " + DATABASE + ".items WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 50)"
        + " SELECT n, CONCAT('item ', n) FROM g");
    mariadb = String.valueOf(admin.query("SELECT VERSION()").execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getValue(0)).contains("MariaDB");
    // one connection, riders up to 8 deep: every read below shares it
    ConnectionConfig c = new ConnectionConfig(ID, Driver.MYSQL, TestDatabases.mysqlUrl(DATABASE), null, null, null,
        null, 1, 256, 10_000, 100, 10_000).withQueue(QueuePolicy.DEFAULT.withPipelineDepth(8).withRideMaxMs(500));
    vertx.deployVerticle(new SqlExecutorVerticle(MySqlEngine.INSTANCE, List.of(c))).await(20, TimeUnit.SECONDS);
  }

  @AfterAll
  static void tearDown() throws Exception {
    try {
      exec("DROP DATABASE IF EXISTS " + DATABASE);
      admin.close().await(5, TimeUnit.SECONDS);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static void exec(String sql) throws Exception {
    admin.query(sql).execute().await(30, TimeUnit.SECONDS);
  }

  private static Future<JsonObject> execute(String sql) {
    SqlAnalyzer.analyseNow(Engines.of(Driver.MYSQL).dialect(), sql);
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.MYSQL),
        SqlBus.queryRequest(ID, UUID.randomUUID().toString(), sql, 100),
        new DeliveryOptions().setSendTimeout(60_000)).map(m -> m.body());
  }

  private static long pipelinedMost;

  private static void notePipelined() throws Exception {
    long now = vertx.eventBus().<JsonObject>request(SqlBus.info(Driver.MYSQL), new JsonObject().put("connectionId", ID))
        .await(10, TimeUnit.SECONDS).body().getJsonObject("pool").getLong("pipelined", 0L);
    pipelinedMost = Math.max(pipelinedMost, now);
  }

  private static String cell(JsonObject result) {
    return String.valueOf(result.getJsonArray("rows").getJsonArray(0).getValue(0));
  }

  @Test
  void ridersGetTheirOwnRowsAndNeverAnotherCallsRowCountOrWarnings() throws Exception {
    String seven = "SELECT id FROM " + DATABASE + ".items WHERE id <= 7";
    String warns = "SELECT 1 / 0 AS x FROM " + DATABASE + ".items WHERE id = 1";
    String foundRows = "SELECT FOUND_ROWS() AS n";
    String warningCount = "SELECT @@warning_count AS n";
    String byId = "SELECT name FROM " + DATABASE + ".items WHERE id = ";
    for (int round = 0; round < 2; round++) {
      // the first round looks the table up and times each text; from the second they may ride
      assertEquals(7, execute(seven).await(30, TimeUnit.SECONDS).getJsonArray("rows").size());
      execute(warns).await(30, TimeUnit.SECONDS);
      execute(foundRows).await(30, TimeUnit.SECONDS);
      execute(warningCount).await(30, TimeUnit.SECONDS);
      for (int i = 1; i <= 20; i++) {
        assertEquals("item " + i, cell(execute(byId + i).await(30, TimeUnit.SECONDS)));
      }
    }
    List<Future<JsonObject>> rows = new ArrayList<>();
    List<Future<JsonObject>> counts = new ArrayList<>();
    List<Future<JsonObject>> warnings = new ArrayList<>();
    List<Future<JsonObject>> named = new ArrayList<>();
    for (int burst = 0; burst < 20; burst++) {
      for (int i = 1; i <= 20; i++) {
        named.add(execute(byId + i));
        if (i % 5 == 0) {
          rows.add(execute(seven));
          counts.add(execute(foundRows));
          warnings.add(execute(warns));
          warnings.add(execute(warningCount));
        }
      }
      notePipelined();
      Future.join(new ArrayList<>(named)).await(60, TimeUnit.SECONDS);
    }
    for (int i = 0; i < named.size(); i++) {
      assertEquals("item " + (i % 20 + 1), cell(named.get(i).await(30, TimeUnit.SECONDS)), "call " + i + "'s own row");
    }
    for (Future<JsonObject> f : rows) {
      assertEquals(7, f.await(30, TimeUnit.SECONDS).getJsonArray("rows").size());
    }
    // every one of them rode behind a read that found rows: without the clear in front it reads them
    for (Future<JsonObject> f : counts) {
      assertEquals("0", cell(f.await(30, TimeUnit.SECONDS)), "FOUND_ROWS() saw another call's row count");
    }
    for (int i = 1; i < warnings.size(); i += 2) {
      assertEquals("0", cell(warnings.get(i).await(30, TimeUnit.SECONDS)), "@@warning_count saw another call's warning");
    }
    if (mariadb) {
      assertTrue(pipelinedMost > 0, "no read rode the connection");
    }
    System.out.printf("[mysql] %d small reads on one connection, up to %d riding at once; every FOUND_ROWS() and"
        + " @@warning_count read 0%n", named.size() + rows.size() + counts.size() + warnings.size(), pipelinedMost);
  }
}
