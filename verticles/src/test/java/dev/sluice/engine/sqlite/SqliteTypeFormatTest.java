package dev.sluice.engine.sqlite;

import static dev.sluice.sql.EngineTypeFixture.BIG;
import static dev.sluice.sql.EngineTypeFixture.BINARY_HEX;
import static dev.sluice.sql.EngineTypeFixture.COLUMNS;
import static dev.sluice.sql.EngineTypeFixture.DATE;
import static dev.sluice.sql.EngineTypeFixture.DECIMAL;
import static dev.sluice.sql.EngineTypeFixture.DOUBLE;
import static dev.sluice.sql.EngineTypeFixture.INSTANT_UTC;
import static dev.sluice.sql.EngineTypeFixture.INT;
import static dev.sluice.sql.EngineTypeFixture.JSON;
import static dev.sluice.sql.EngineTypeFixture.LONG_TEXT;
import static dev.sluice.sql.EngineTypeFixture.REAL;
import static dev.sluice.sql.EngineTypeFixture.SMALL;
import static dev.sluice.sql.EngineTypeFixture.TIMESTAMP;
import static dev.sluice.sql.EngineTypeFixture.expected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-engine value contract on SQLite: the same logical values as PgTypeFormatTest and
 * MySqlTypeFormatTest, stored in SQLite's declared types, come back through a worker process as
 * exactly the same JSON.
 */
class SqliteTypeFormatTest {

  @TempDir
  Path dir;

  @Test
  void fixtureValuesFormatAsOnTheOtherEngines() throws Exception {
    Path db = dir.resolve("types.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE t (n_small SMALLINT, n_int INTEGER, n_big BIGINT,"
          + " n_decimal NUMERIC(12,4), n_real REAL, n_double DOUBLE PRECISION, flag BOOLEAN, day DATE,"
          + " ts TIMESTAMP, instant TIMESTAMPTZ, body TEXT, bin BLOB, doc JSON, missing INTEGER)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,NULL)")) {
        ps.setShort(1, SMALL);
        ps.setInt(2, INT);
        ps.setLong(3, BIG);
        // NUMERIC affinity keeps 12345.67 as REAL 12345.67; the declared scale restores 12345.6700
        ps.setString(4, DECIMAL);
        ps.setFloat(5, REAL);
        ps.setDouble(6, DOUBLE);
        ps.setInt(7, 1);
        ps.setString(8, DATE);
        ps.setString(9, TIMESTAMP);
        ps.setString(10, INSTANT_UTC);
        ps.setString(11, LONG_TEXT);
        ps.setBytes(12, HexFormat.of().parseHex(BINARY_HEX));
        ps.setString(13, JSON);
        ps.executeUpdate();
      }
      // a NUMERIC without (p,s) keeps its digits; DECIMAL(10,2) pads to its scale
      c.createStatement().execute("CREATE TABLE u (plain NUMERIC, price DECIMAL(10,2))");
      c.createStatement().execute("INSERT INTO u VALUES (12.5, 3)");
    }
    Vertx vertx = Vertx.vertx();
    try {
      ConnectionConfig cfg = new ConnectionConfig("types", Driver.SQLITE, null, db.toString(), null, null, null,
          1, 4, 10_000, 100, 1_000);
      vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.sqlite.SqliteEngine.INSTANCE, List.of(cfg))).await(60, TimeUnit.SECONDS);
      JsonObject r = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.SQLITE),
          SqlBus.queryRequest("types", "q1", "SELECT " + String.join(", ", COLUMNS) + " FROM t", 10))
          .await(30, TimeUnit.SECONDS).body();
      assertEquals(new JsonArray(COLUMNS), r.getJsonArray("headers"));
      assertEquals(expected(false).encode(), r.getJsonArray("rows").getJsonArray(0).encode());
      JsonObject u = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.SQLITE),
          SqlBus.queryRequest("types", "q2", "SELECT plain, price FROM u", 10))
          .await(30, TimeUnit.SECONDS).body();
      assertEquals("[[\"12.5\",\"3.00\"]]", u.getJsonArray("rows").encode());
      System.out.println("[SQLITE] headerTypes " + r.getJsonArray("headerTypes").encode());
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }
}
