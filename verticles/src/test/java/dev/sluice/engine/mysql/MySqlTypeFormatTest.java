package dev.sluice.engine.mysql;

import static dev.sluice.sql.EngineTypeFixture.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MySqlTypeFormatTest {

  @Test
  void fixtureValuesFormatAsSpecified() throws Exception {
    TestDatabases.requireMysql();
    String db = TestDatabases.uniqueName("mytypes");
    Vertx vertx = Vertx.vertx();
    Pool boot = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    try {
      run(boot, "CREATE DATABASE " + db);
      run(boot, "CREATE TABLE " + db + ".t (n_small SMALLINT, n_int INT, n_big BIGINT, n_decimal DECIMAL(12,4),"
          + " n_real FLOAT, n_double DOUBLE, flag BOOLEAN, day DATE, ts DATETIME, instant TIMESTAMP NULL,"
          + " body LONGTEXT, bin BLOB, doc JSON, missing INT)");
      // The session is UTC so the TIMESTAMP literal is the UTC instant.
      boot.withConnection(c -> c.query("SET time_zone = '+00:00'").execute().compose(x -> c.preparedQuery(
              "INSERT INTO " + db + ".t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, UNHEX(?), ?, NULL)")
          .execute(Tuple.from(List.<Object>of(SMALL, INT, BIG, DECIMAL, REAL, DOUBLE, FLAG, DATE, TIMESTAMP, INSTANT_UTC,
              LONG_TEXT, BINARY_HEX, JSON)))))
          .await(10, TimeUnit.SECONDS);
      ConnectionConfig cfg = new ConnectionConfig("types", Driver.MYSQL, TestDatabases.mysqlUrl(db),
          null, null, null, null, 1, 4, 5_000, 100, 1_000);
      vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.mysql.MySqlEngine.INSTANCE, List.of(cfg))).await(20, TimeUnit.SECONDS);
      JsonObject r = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.MYSQL),
          SqlBus.queryRequest("types", "q1", "SELECT " + String.join(", ", COLUMNS) + " FROM t", 10))
          .await(20, TimeUnit.SECONDS).body();
      System.out.println("[MYSQL] headerTypes " + r.getJsonArray("headerTypes").encode());
      System.out.println("[MYSQL] row " + r.getJsonArray("rows").getJsonArray(0).encode().replaceAll("x{20,}", "x..."));
      assertEquals(new JsonArray(COLUMNS), r.getJsonArray("headers"));
      assertEquals(expected(false).encode(), r.getJsonArray("rows").getJsonArray(0).encode());
    } finally {
      run(boot, "DROP DATABASE IF EXISTS " + db);
      boot.close().await(5, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static void run(Pool pool, String sql) throws Exception {
    pool.query(sql).execute().await(10, TimeUnit.SECONDS);
  }
}
