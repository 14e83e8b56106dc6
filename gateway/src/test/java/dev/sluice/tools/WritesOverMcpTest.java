package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.Tokens;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Gated writes on PostgreSQL and MariaDB: who may write, confirmation of destructive statements, audit. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WritesOverMcpTest {

  private static final String OPS = Tokens.newToken();
  private static final String VIEWER = Tokens.newToken();
  private final String schema = TestDatabases.uniqueName("wr_pg");
  private final String database = TestDatabases.uniqueName("wr_my");
  private Vertx vertx;
  private Pool pg;
  private Pool my;
  private TestGateway gw;
  private Path dir;

  @BeforeAll
  void start() throws Exception {
    TestDatabases.requirePostgres();
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    pg = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    my = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    pg.query("CREATE SCHEMA " + schema).execute().await(10, TimeUnit.SECONDS);
    pg.query("CREATE TABLE " + schema + ".items (id int PRIMARY KEY, qty int)").execute().await(10, TimeUnit.SECONDS);
    pg.query("INSERT INTO " + schema + ".items SELECT g, 1 FROM generate_series(1, 50) g").execute()
        .await(10, TimeUnit.SECONDS);
    my.query("CREATE DATABASE " + database).execute().await(10, TimeUnit.SECONDS);
    my.query("CREATE TABLE " + database + ".items (id int PRIMARY KEY, qty int)").execute().await(10, TimeUnit.SECONDS);
    my.query("INSERT INTO " + database + ".items SELECT seq, 1 FROM seq_1_to_50").execute().await(10, TimeUnit.SECONDS);
    dir = Files.createTempDirectory("sluice-writes");
    Path lite = dir.resolve("w.sqlite");
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + lite)) {
      c.createStatement().execute("CREATE TABLE items (id INTEGER PRIMARY KEY, qty INTEGER)");
      c.createStatement().execute("WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 20) "
          + "INSERT INTO items SELECT x, 1 FROM s");
    }
    List<ConnectionConfig> cs = List.of(
        new ConnectionConfig("lite", Driver.SQLITE, null, lite.toString(), null, null, null, 2, 64, 10_000, 1_000,
            10_000),
        new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null,
            null, 2, 64, 10_000, 1_000, 10_000),
        new ConnectionConfig("my", Driver.MYSQL, TestDatabases.mysqlUrl(database), null, null, null, null, 2, 64,
            10_000, 1_000, 10_000));
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), cs, dir).withPrincipals(List.of(
        new PrincipalConfig("ops", List.of(Tokens.sha256Hex(OPS)), List.of(), null, Map.of(), List.of("pg", "my", "lite")),
        new PrincipalConfig("viewer", List.of(Tokens.sha256Hex(VIEWER)), List.of()))), null);
  }

  @AfterAll
  void stop() throws Exception {
    if (gw != null) {
      gw.close();
    }
    if (pg != null) {
      pg.query("DROP SCHEMA IF EXISTS " + schema + " CASCADE").execute().await(10, TimeUnit.SECONDS);
      my.query("DROP DATABASE IF EXISTS " + database).execute().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private McpHttpClient as(String token) throws Exception {
    return gw.session(token);
  }

  private static JsonObject write(McpHttpClient c, String conn, String sql, boolean confirm) throws Exception {
    return c.callTool("sql_write", new JsonObject().put("connectionId", conn).put("sql", sql)
        .put("confirm_destructive", confirm)).getJsonObject("result");
  }

  private long total(Pool pool, String table) throws Exception {
    return pool.query("SELECT sum(qty) FROM " + table).execute().await(10, TimeUnit.SECONDS).iterator().next()
        .getLong(0);
  }

  @Test
  void destructiveWritesNeedConfirmationAndEveryWriteIsAudited() throws Exception {
    McpHttpClient ops = as(OPS);
    for (String[] target : List.of(new String[] {"pg", schema + ".items"}, new String[] {"my", database + ".items"})) {
      Pool pool = target[0].equals("pg") ? pg : my;
      String table = target[1];
      JsonObject ask = write(ops, target[0], "UPDATE " + table + " SET qty = qty + 1", false);
      assertTrue(ask.getBoolean("isError"), ask.encode());
      JsonObject e = McpHttpClient.errorBody(ask);
      assertEquals("confirmation_required", e.getString("error_type"), e.encode());
      assertEquals(50, e.getLong("estimatedRows"), e.encode());
      assertEquals(50, total(pool, table), "nothing changed before confirmation");

      JsonObject done = write(ops, target[0], "UPDATE " + table + " SET qty = qty + 1", true);
      assertFalse(done.getBoolean("isError"), done.encode());
      assertEquals(50, done.getJsonObject("structuredContent").getInteger("rowsAffected"));
      assertEquals(100, total(pool, table), "committed");

      JsonObject one = write(ops, target[0], "UPDATE " + table + " SET qty = 10 WHERE id = 1", false);
      assertEquals(1, one.getJsonObject("structuredContent").getInteger("rowsAffected"), one.encode());
      JsonObject hostile = write(ops, target[0], target[0].equals("pg")
          ? "COPY " + table + " TO PROGRAM 'touch /tmp/sluice-pwned'" : "SELECT * FROM " + table
              + " INTO OUTFILE '/tmp/sluice-pwned'", true);
      assertEquals("validation_failed", McpHttpClient.errorBody(hostile).getString("error_type"),
          hostile.encode());
      JsonObject read = ops.callTool("sql_execution", new JsonObject().put("connectionId", target[0])
          .put("sql", "DELETE FROM " + table)).getJsonObject("result");
      assertEquals("validation_failed", McpHttpClient.errorBody(read).getString("error_type"),
          "the read-only tools stay read-only");
    }
    JsonObject returning = write(ops, "pg", "INSERT INTO " + schema + ".items VALUES (51, 3) RETURNING id, qty", false);
    assertEquals(1, returning.getJsonObject("structuredContent").getJsonArray("rows").size(), returning.encode());
    JsonObject drop = write(ops, "pg", "DROP TABLE " + schema + ".items", false);
    assertEquals("confirmation_required", McpHttpClient.errorBody(drop).getString("error_type"));

    gw.gateway.audit().close();
    List<JsonObject> records = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("audit"))) {
      for (Path f : files.toList()) {
        Files.readAllLines(f).forEach(l -> records.add(new JsonObject(l)));
      }
    }
    // the other tests of this class may run first: count this test's connections only
    List<JsonObject> mine = records.stream().filter(r -> !"lite".equals(r.getString("connectionId"))).toList();
    long intents = mine.stream().filter(r -> "write_intent".equals(r.getString("type"))).count();
    long writeCalls = mine.stream().filter(r -> "sql_write".equals(r.getString("tool"))
        && "tools/call".equals(r.getString("type")) && "ops".equals(r.getString("principal"))).count();
    assertEquals(5, intents, "confirmed UPDATE and WHERE UPDATE per engine, plus the INSERT: audited before");
    assertEquals(10, writeCalls, "every sql_write call of ops has its outcome record");
  }

  /** SQLite: the single read-write worker of the file takes the writes; the read workers see them. */
  @Test
  void sqliteWritesGoThroughItsOneWriterProcess() throws Exception {
    McpHttpClient ops = as(OPS);
    JsonObject ask = McpHttpClient.errorBody(write(ops, "lite", "DELETE FROM items", false));
    assertEquals("confirmation_required", ask.getString("error_type"), ask.encode());
    assertEquals(20, ask.getLong("estimatedRows"));
    JsonObject one = write(ops, "lite", "UPDATE items SET qty = 7 WHERE id <= 5", false);
    assertFalse(one.getBoolean("isError"), one.encode());
    assertEquals(5, one.getJsonObject("structuredContent").getInteger("rowsAffected"));
    JsonObject inserted = write(ops, "lite", "INSERT INTO items VALUES (21, 1) RETURNING id", false)
        .getJsonObject("structuredContent");
    assertEquals(1, inserted.getInteger("rowsAffected"), inserted.encode());
    assertEquals(21, inserted.getJsonArray("rows").getJsonArray(0).getInteger(0));
    JsonObject sum = ops.callTool("sql_execution", new JsonObject().put("connectionId", "lite")
        .put("sql", "SELECT sum(qty) AS s FROM items")).getJsonObject("result").getJsonObject("structuredContent");
    assertEquals(5 * 7 + 15 + 1, sum.getJsonArray("rows").getJsonArray(0).getInteger(0), "readers see the commit");
    assertEquals("host_reaching", McpHttpClient.errorBody(write(ops, "lite", "ATTACH DATABASE '/tmp/x.db' AS x", true)).getString("rule"));
    assertEquals("host_reaching", McpHttpClient.errorBody(write(ops, "lite", "VACUUM INTO '/tmp/copy.db'", true)).getString("rule"));
  }

  @Test
  void onlyPrincipalsGivenWritesMayWrite() throws Exception {
    McpHttpClient viewer = as(VIEWER);
    JsonObject r = write(viewer, "pg", "UPDATE " + schema + ".items SET qty = 0 WHERE id = 2", true);
    assertEquals("permission_denied", McpHttpClient.errorBody(r).getString("error_type"), r.encode());
  }
}
