package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineExecutorContract;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.Tag("serial") // run alone: reads SHOW GLOBAL STATUS counters, which any other MariaDB test would move
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
  protected void killOrphan(String marker) throws Exception {
    long orphan = count("SELECT COALESCE(MAX(id), 0) FROM information_schema.processlist WHERE info LIKE '%"
        + marker + "%' AND info NOT LIKE '%processlist%'");
    if (orphan > 0) {
      exec("KILL QUERY " + orphan);
    }
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

  /**
   * A small read with the connection's own deadline goes in one trip: no transaction, nothing
   * prepared, in the session's READ ONLY with that deadline and the one-trip row cap; a statement
   * the cap cannot bound takes the cursor in a transaction and finds the cap back at DEFAULT.
   */
  @Test
  void aSmallReadTakesOneTripInTheReadOnlySession() throws Exception {
    deploy(config("onetrip", 5_000, 1, 8));
    boolean mariadb = count("SELECT VERSION() LIKE '%MariaDB%'") == 1;
    ok(q("onetrip", "SELECT 1", 1));
    long begins = status("Com_begin");
    long prepares = status("Com_stmt_prepare");
    for (int i = 0; i < 20; i++) {
      assertEquals(2, ok(q("onetrip", "SELECT id, name FROM customers ORDER BY id", 10)).getInteger("rowCount"));
    }
    assertTrue(status("Com_begin") - begins <= 2, "transactions for 20 reads: " + (status("Com_begin") - begins));
    assertTrue(status("Com_stmt_prepare") - prepares <= 2, "prepares for 20 reads: " + (status("Com_stmt_prepare") - prepares));

    JsonArray inside = ok(q("onetrip", mariadb
        ? "SELECT @@SESSION.tx_read_only, @@SESSION.max_statement_time * 1000, @@SESSION.sql_select_limit, @@in_transaction"
        : "SELECT @@SESSION.transaction_read_only, @@SESSION.max_execution_time, @@SESSION.sql_select_limit, 0", 10))
        .getJsonArray("rows").getJsonArray(0);
    assertEquals("1", String.valueOf(inside.getValue(0)), "read only: " + inside);
    assertEquals(5_000, Double.parseDouble(String.valueOf(inside.getValue(1))), 0.5, "the deadline: " + inside);
    assertEquals(String.valueOf(MySqlAdapter.ONE_TRIP_ROW_CAP), String.valueOf(inside.getValue(2)),
        "the query pool's standing row cap: " + inside);
    assertEquals("0", String.valueOf(inside.getValue(3)), "no transaction: " + inside);

    JsonArray cursor = ok(q("onetrip", "SELECT @@SESSION.sql_select_limit, " + (mariadb ? "@@in_transaction" : "1")
        + " FROM customers LIMIT 1000000", 10)).getJsonArray("rows").getJsonArray(0);
    assertEquals("18446744073709551615", String.valueOf(cursor.getValue(0)), "DEFAULT for a statement in a transaction: " + cursor);
    assertEquals("1", String.valueOf(cursor.getValue(1)), "the cursor read runs in its transaction: " + cursor);
  }

  /** The session cap stops the server itself; a statement's own larger LIMIT takes the cursor, which also stops. */
  @Test
  void theRowCapStopsTheServer() throws Exception {
    deploy(config("capped", 5_000, 1, 8));
    boolean mariadb = count("SELECT VERSION() LIKE '%MariaDB%'") == 1;
    for (String sql : List.of("SELECT n FROM big", "SELECT n FROM big UNION ALL SELECT n FROM big",
        "WITH b AS (SELECT n FROM big) SELECT n FROM b ORDER BY n DESC", "SELECT n FROM big LIMIT 40000")) {
      long sent = mariadb ? status("Rows_sent") : 0;
      JsonObject r = ok(q("capped", sql, 10));
      assertEquals(10, r.getInteger("rowCount"), sql);
      assertTrue(r.getBoolean("truncated"), sql);
      if (mariadb) {
        long rows = status("Rows_sent") - sent;
        assertTrue(rows < 2_000, sql + ": the server sent " + rows + " rows for a cap of 10");
      }
    }
    JsonObject seven = ok(q("capped", "SELECT n FROM big ORDER BY n LIMIT 7", 10));
    assertEquals(7, seven.getInteger("rowCount"));
    assertFalse(seven.getBoolean("truncated"));
  }

  /** KILL QUERY reaches a one-trip read through the backend id read at connect; the deadline stops one too. */
  @Test
  void aOneTripReadStopsAtItsDeadlineAndOnCancel() throws Exception {
    deploy(config("short", 1_000, 1, 8), config("long", 30_000, 1, 8));
    String cross = "SELECT count(*) AS %s FROM big a, big b WHERE a.n + b.n = 7";
    String m = "m" + Long.toHexString(System.nanoTime());
    SqlError late = failure(execute(q("short", String.format(cross, m), 10)));
    assertEquals(ErrorType.TIMEOUT, late.type(), late.toJson().encode());
    awaitGone(m);
    assertEquals(1, ok(q("short", "SELECT 1", 1)).getInteger("rowCount"));

    String m2 = "m" + Long.toHexString(System.nanoTime());
    JsonObject req = q("long", String.format(cross, m2), 10);
    Future<JsonObject> slow = execute(req);
    awaitCondition(() -> count(activitySql(m2)) > 0, "the cross join running");
    JsonObject reply = vertx.eventBus().<JsonObject>request(SqlBus.cancel(driver()),
        new JsonObject().put("queryId", req.getString("queryId"))).await(10, TimeUnit.SECONDS).body();
    assertEquals(true, reply.getBoolean("cancelled"));
    assertEquals(ErrorType.CANCELLED, failure(slow).type());
    awaitGone(m2);
    assertEquals(2, ok(q("long", "SELECT id FROM customers", 10)).getInteger("rowCount"));
  }

  /**
   * A connection lost under a one-trip read answers connection_error at once and gives its pool
   * slot back (the contract's test covers a read in a transaction: SLEEP takes the cursor).
   */
  @Test
  void aConnectionLostUnderAOneTripReadAnswersAtOnceAndFreesItsSlot() throws Exception {
    lostUnder("lost", "SELECT count(*) AS %s FROM big a, big b WHERE a.n + b.n = 7");
  }

  /**
   * A connection lost while its release waits behind a statement still on the wire (a reset
   * pipelined behind a one-trip read is the same): the release must not wait for answers the
   * client will never give.
   */
  @Test
  void aConnectionLostWhileLeasedIsReleasedAtOnce() throws Exception {
    ConnectionConfig direct = config("leased", 5_000, 1, 8);
    dev.sluice.sql.OutageProxy proxy = dev.sluice.sql.OutageProxy.inFrontOf(vertx, direct);
    MySqlAdapter adapter = null;
    try {
      proxy.up();
      adapter = new MySqlAdapter(vertx, proxy.route(direct));
      adapter.start().await(10, TimeUnit.SECONDS);
      dev.sluice.sql.pool.EngineAdapter.Lease lease = adapter.lease(5_000).await(10, TimeUnit.SECONDS);
      // a statement still running when the connection goes, with the release queued behind it
      Future<?> running = lease.conn().query("SELECT SLEEP(3)").execute();
      Thread.sleep(200);
      Future<Void> released = adapter.release(lease);
      proxy.down();
      long t0 = System.nanoTime();
      assertTrue(running.failed() || running.otherwiseEmpty().await(3, TimeUnit.SECONDS) == null);
      released.await(3, TimeUnit.SECONDS);
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 3_000);
      assertEquals(0, adapter.poolStats().getInteger("inUse"), adapter.poolStats().encode());
      proxy.up();
      dev.sluice.sql.pool.EngineAdapter.Lease again = null;
      for (int attempt = 0; attempt < 20 && again == null; attempt++) {
        try {
          again = adapter.lease(5_000).await(5, TimeUnit.SECONDS);
        } catch (Exception stillDown) {
          Thread.sleep(250);
        }
      }
      assertTrue(again != null, "the pool's only connection back after the loss");
      adapter.release(again).await(5, TimeUnit.SECONDS);
    } finally {
      if (adapter != null) {
        adapter.close().await(5, TimeUnit.SECONDS);
      }
      proxy.close();
    }
  }

  /**
   * What a one-trip read leaves on the session's diagnostics (its row count, its warnings) is not
   * there for the next call on the connection.
   */
  @Test
  void aOneTripReadLeavesNoRowCountOrWarningsBehind() throws Exception {
    deploy(config("after", 5_000, 1, 8));
    // each twice: the first read of a table gets the reset (and the look-up), the second not
    for (int i = 0; i < 2; i++) {
      assertEquals(37, ok(q("after", "SELECT n FROM big LIMIT 37", 100)).getInteger("rowCount"));
      Object found = ok(q("after", "SELECT FOUND_ROWS()", 10)).getJsonArray("rows").getJsonArray(0).getValue(0);
      assertFalse("37".equals(String.valueOf(found)), "the previous call's row count: " + found);
      ok(q("after", "SELECT CAST(CONCAT(n, 'sluice') AS UNSIGNED) AS n FROM big ORDER BY n LIMIT 2", 10));
      // (SHOW WARNINGS itself is refused: only the count can be read)
      Object count = ok(q("after", "SELECT @@warning_count", 10)).getJsonArray("rows").getJsonArray(0).getValue(0);
      assertEquals("0", String.valueOf(count), "the previous call's warnings");
      ok(q("after", "SELECT CAST('12sluice' AS UNSIGNED) AS n", 10));
      count = ok(q("after", "SELECT @@warning_count", 10)).getJsonArray("rows").getJsonArray(0).getValue(0);
      assertEquals("0", String.valueOf(count), "the previous call's warnings, read of no table");
      assertEquals(ErrorType.COLUMN_NOT_FOUND, err(q("after", "SELECT nosuch FROM big LIMIT 1", 10)).type());
      count = ok(q("after", "SELECT @@error_count", 10)).getJsonArray("rows").getJsonArray(0).getValue(0);
      assertEquals("0", String.valueOf(count), "the previous call's error");
      // a reader that takes the cursor (its transaction's lease), and one behind a read that read nothing
      assertEquals(37, ok(q("after", "SELECT n FROM big LIMIT 37", 100)).getInteger("rowCount"));
      found = ok(q("after", "SELECT FOUND_ROWS() AS f, n FROM big ORDER BY n LIMIT 2000", 5000))
          .getJsonArray("rows").getJsonArray(0).getValue(0);
      assertFalse("37".equals(String.valueOf(found)), "the previous call's row count, read through a cursor: " + found);
      assertEquals(37, ok(q("after", "SELECT n FROM big LIMIT 37", 100)).getInteger("rowCount"));
      ok(q("after", "SELECT 1 AS one", 10)); // no reader: nothing in front of it; it leaves its own row count
      found = ok(q("after", "SELECT ROW_COUNT(), FOUND_ROWS()", 10)).getJsonArray("rows").getJsonArray(0).getValue(1);
      assertEquals("0", String.valueOf(found), "cleared in front of the reader");
    }
  }

  /**
   * A read of base tables that reads no diagnostics is one command: nothing behind it, and nothing
   * in front unless the statement could read what the one before left (it then gets the clear).
   */
  @Test
  void aNeutralReadIsOneCommandAndAReaderOfDiagnosticsGetsTheClearInFront() throws Exception {
    deploy(config("single", 5_000, 1, 8));
    String plain = "SELECT count(*) AS n FROM customers";
    ok(q("single", plain, 5)); // looks the table up
    long selects = status("Com_select");
    for (int i = 0; i < 10; i++) {
      ok(q("single", plain, 5));
    }
    assertEquals(10, status("Com_select") - selects, "one statement per read");
    selects = status("Com_select");
    for (int i = 0; i < 5; i++) {
      ok(q("single", plain, 5));
      ok(q("single", "SELECT FOUND_ROWS() AS f", 5));
    }
    assertEquals(15, status("Com_select") - selects, "each FOUND_ROWS() behind a read gets the clear in front");
  }

  /**
   * A read of base tables only goes without the reset and the set-up (MariaDB counts no SET for
   * it); a read through a view keeps them. The trap is a view whose stored function sets a user
   * variable and the session's time zone: read through it, the next call must find neither.
   */
  @Test
  void onlyReadsOfBaseTablesGoWithoutTheReset() throws Exception {
    exec("CREATE FUNCTION trap() RETURNS INT DETERMINISTIC BEGIN SET @trap = 42; SET SESSION time_zone = '+05:00';"
        + " RETURN 1; END");
    exec("CREATE VIEW trapview AS SELECT trap() AS x");
    try {
      deploy(config("neutral", 5_000, 1, 8));
      String plain = "SELECT count(*) AS n FROM customers";
      ok(q("neutral", plain, 5)); // the first read of the table looks it up in information_schema
      long sets = status("Com_set_option");
      for (int i = 0; i < 10; i++) {
        assertEquals(2, Integer.parseInt(String.valueOf(ok(q("neutral", plain, 5)).getJsonArray("rows")
            .getJsonArray(0).getValue(0))));
      }
      assertEquals(0, status("Com_set_option") - sets, "ten reads of a base table: no set-up behind them");
      for (int i = 0; i < 3; i++) {
        sets = status("Com_set_option");
        assertEquals(1, ok(q("neutral", "SELECT x FROM trapview", 5)).getInteger("rowCount"));
        assertTrue(status("Com_set_option") - sets >= 1, "a read through a view gets the set-up again");
        JsonArray after = ok(q("neutral", "SELECT @trap, @@SESSION.time_zone", 5)).getJsonArray("rows").getJsonArray(0);
        assertEquals(null, after.getValue(0), "the view's function set a user variable: " + after);
        assertEquals("+00:00", after.getValue(1), "the view's function set the time zone: " + after);
      }
      // a view reads what its text does not show: it gets the clear in front
      exec("CREATE VIEW foundview AS SELECT FOUND_ROWS() AS f");
      for (int i = 0; i < 2; i++) {
        assertEquals(37, ok(q("neutral", "SELECT n FROM big LIMIT 37", 100)).getInteger("rowCount"));
        Object f = ok(q("neutral", "SELECT f FROM foundview", 5)).getJsonArray("rows").getJsonArray(0).getValue(0);
        assertFalse("37".equals(String.valueOf(f)), "the previous call's row count through a view: " + f);
      }
    } finally {
      exec("DROP VIEW IF EXISTS foundview");
      exec("DROP VIEW IF EXISTS trapview");
      exec("DROP FUNCTION IF EXISTS trap");
    }
  }

  /**
   * The set-up after each call's reset (the sql_mode as a literal, the deadline through a subquery)
   * gives the session the connection's own set-up gave it.
   */
  @Test
  void theSessionAfterAResetIsTheOneTheConnectionOpenedWith() throws Exception {
    deploy(config("again", 5_000, 1, 8));
    String read = "SELECT @@SESSION.sql_mode, @@SESSION.time_zone, @@SESSION.tx_read_only,"
        + " @@SESSION.max_statement_time, @@SESSION.sql_select_limit";
    JsonArray first = ok(q("again", read, 10)).getJsonArray("rows").getJsonArray(0);
    String mode = String.valueOf(first.getValue(0));
    assertFalse(mode.contains("ANSI_QUOTES") || mode.contains("NO_BACKSLASH_ESCAPES"), mode);
    assertEquals("+00:00", first.getValue(1));
    assertEquals("1", String.valueOf(first.getValue(2)));
    assertEquals(5.0, Double.parseDouble(String.valueOf(first.getValue(3))));
    for (int i = 0; i < 3; i++) {
      assertEquals(first.encode(), ok(q("again", read, 10)).getJsonArray("rows").getJsonArray(0).encode(), "call " + i);
    }
  }

  /** The one-trip read (text protocol) and the cursor (binary protocol) give the same values and types. */
  @Test
  void oneTripAndCursorReadTheSameValues() throws Exception {
    exec("CREATE TABLE IF NOT EXISTS typed (id INT PRIMARY KEY, ti TINYINT, flag TINYINT(1), si SMALLINT UNSIGNED,"
        + " bi BIGINT, de DECIMAL(12,4), fl FLOAT, db DOUBLE, bt BIT(5), ch CHAR(3), vc VARCHAR(20), tx TEXT,"
        + " bl BLOB, dt DATE, tm TIME(3), dtm DATETIME(6), ts TIMESTAMP(3) NULL, yr YEAR, en ENUM('a','b'),"
        + " js JSON, nul INT, ub BIGINT UNSIGNED, st SET('x','y'), big DOUBLE, pt POINT, bin VARBINARY(4))");
    exec("DELETE FROM typed");
    exec("INSERT INTO typed VALUES (1, -7, 1, 65000, 9007199254740993, 12345678.1234, 1.1, 2.718281828459045,"
        + " b'10101', 'ab', 'naïve ✓', 'long text', x'00ff10', '2024-02-29', '-12:34:56.789',"
        + " '2024-02-29 23:59:59.123456', '2024-03-01 00:00:00.5', 2024, 'b', '{\"k\": [1, 2.5, null]}', NULL,"
        + " 18446744073709551615, 'x,y', 1.7976931348623157e308, ST_GeomFromText('POINT(1 2)'), x'dead')");
    deploy(config("typed", 5_000, 1, 8));
    JsonObject oneTrip = ok(q("typed", "SELECT * FROM typed", 10));
    JsonObject cursor = ok(q("typed", "SELECT * FROM typed LIMIT 1000000", 10));
    assertEquals(cursor.getJsonArray("headerTypes"), oneTrip.getJsonArray("headerTypes"));
    assertEquals(cursor.getJsonArray("rows").encode(), oneTrip.getJsonArray("rows").encode());
    JsonArray row = oneTrip.getJsonArray("rows").getJsonArray(0);
    assertEquals("POINT(1 2)", row.getValue(oneTrip.getJsonArray("headers").getList().indexOf("pt")), row.encode());
  }

  private long status(String name) throws Exception {
    return Long.parseLong(String.valueOf(admin.query("SHOW GLOBAL STATUS LIKE '" + name + "'").execute()
        .await(10, TimeUnit.SECONDS).iterator().next().getValue(1)));
  }

  @Override
  protected List<String[]> sessionState() {
    return List.of(
        new String[] {"SELECT GET_LOCK('sluice_leak', 0)", "SELECT IS_USED_LOCK('sluice_leak') IS NOT NULL", "1"},
        new String[] {"SET @leak = 42", "SELECT @leak", "42"},
        new String[] {"SELECT @leak2 := 43", "SELECT @leak2", "43"},
        new String[] {"SELECT LAST_INSERT_ID(4242)", "SELECT LAST_INSERT_ID()", "4242"},
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
