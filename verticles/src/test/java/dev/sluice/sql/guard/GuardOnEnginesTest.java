package dev.sluice.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The guard end to end on the real engines, through the executors, on SUPERUSER connections (what
 * the CI services give): every refusal-corpus statement is refused and afterwards every table is
 * exactly as it was; every benign-corpus query actually runs on the demo data.
 */
class GuardOnEnginesTest {

  private Vertx vertx;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }

  @Test
  void postgres() throws Exception {
    TestDatabases.requirePostgres();
    String db = TestDatabases.uniqueName("guard");
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    admin.query("CREATE DATABASE " + db).execute().await(30, TimeUnit.SECONDS);
    Pool pool = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(db)).using(vertx).build();
    try {
      DemoDataset.loadPostgres(pool, "public").await(120, TimeUnit.SECONDS);
      pool.query("CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2), (3); CREATE SEQUENCE s").execute()
          .await(30, TimeUnit.SECONDS);
      String sum = "SELECT string_agg(x, '|' ORDER BY x) FROM (SELECT table_name || ':' || "
          + "(xpath('/row/c/text()', query_to_xml('select count(*) as c from public.' || table_name, false, true, '')))[1]::text AS x "
          + "FROM information_schema.tables WHERE table_schema = 'public') q";
      String checksumSql = sum + " UNION ALL SELECT string_agg(a::text, ',' ORDER BY a) FROM t"
          + " UNION ALL SELECT last_value::text FROM s";
      ConnectionConfig c = new ConnectionConfig("g", Driver.POSTGRES, TestDatabases.pgUrl(db), null, null, null,
          null, 2, 16, 5_000, 100, 10_000);
      vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.postgres.PostgresEngine.INSTANCE, List.of(c))).await(30, TimeUnit.SECONDS);
      run(Dialect.POSTGRES, Driver.POSTGRES, () -> rows(pool, checksumSql));
    } finally {
      pool.close().await(10, TimeUnit.SECONDS);
      admin.query("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)").execute().await(30, TimeUnit.SECONDS);
      admin.close();
    }
  }

  @Test
  void mariadb() throws Exception {
    TestDatabases.requireMysql();
    String db = TestDatabases.uniqueName("guard");
    Pool admin = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    try {
      DemoDataset.loadMysql(admin, db).await(120, TimeUnit.SECONDS);
      for (String s : List.of("CREATE TABLE " + db + ".t (a int)", "INSERT INTO " + db + ".t VALUES (1), (2), (3)")) {
        admin.query(s).execute().await(30, TimeUnit.SECONDS);
      }
      String checksumSql = "SELECT CONCAT(table_name, ':', table_rows) FROM information_schema.tables WHERE table_schema = '"
          + db + "' UNION ALL SELECT GROUP_CONCAT(a ORDER BY a) FROM " + db + ".t"
          + " UNION ALL SELECT COUNT(*) FROM " + db + ".customers UNION ALL SELECT COUNT(*) FROM " + db + ".orders"
          + " UNION ALL SELECT @@global.read_only";
      ConnectionConfig c = new ConnectionConfig("g", Driver.MYSQL, TestDatabases.mysqlUrl(db), null, null, null,
          null, 2, 16, 5_000, 100, 10_000);
      vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.mysql.MySqlEngine.INSTANCE, List.of(c))).await(30, TimeUnit.SECONDS);
      // table_rows is InnoDB's estimate and moves on its own: CHECKSUM TABLE reads the content
      run(Dialect.MYSQL, Driver.MYSQL, () -> rows(admin, checksumSql.replaceFirst("CONCAT\\(table_name, ':', table_rows\\)",
          "table_name")) + contentChecksums(admin, db));
    } finally {
      admin.query("DROP DATABASE IF EXISTS " + db).execute().await(30, TimeUnit.SECONDS);
      admin.close();
    }
  }

  @Test
  void sqlite() throws Exception {
    Path dir = Files.createTempDirectory("guard-sqlite");
    Path file = dir.resolve("demo.sqlite");
    DemoDataset.writeSqlite(file);
    try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE t (a int)");
      st.execute("INSERT INTO t VALUES (1), (2), (3)");
    }
    ConnectionConfig c = new ConnectionConfig("g", Driver.SQLITE, null, file.toString(), null, null, null, 2, 16,
        5_000, 100, 10_000);
    vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.sqlite.SqliteEngine.INSTANCE, List.of(c))).await(60, TimeUnit.SECONDS);
    // the whole database file, byte for byte, and no file written beside it
    run(Dialect.SQLITE, Driver.SQLITE, () -> HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))) + " " + list(dir));
  }

  private interface Checksum {
    String get() throws Exception;
  }

  private void run(Dialect dialect, Driver driver, Checksum checksum) throws Exception {
    String before = checksum.get();
    List<String> problems = new ArrayList<>();
    for (GuardCorpus.Entry e : GuardCorpus.refuse(dialect)) {
      JsonObject outcome = execute(driver, e.sql());
      if (!outcome.containsKey("error_type")) {
        problems.add("RAN: " + e.sql());
      }
    }
    assertEquals(before, checksum.get(), "a refused statement changed the database");
    int accepted = 0;
    for (GuardCorpus.Entry e : GuardCorpus.accept(dialect)) {
      JsonObject outcome = execute(driver, e.sql());
      if (outcome.containsKey("error_type")) {
        problems.add("FAILED: " + e.sql() + "\n    " + outcome.encode());
      } else {
        accepted++;
      }
    }
    System.out.println(dialect + " on the engine: " + GuardCorpus.refuse(dialect).size()
        + " refused statements left the data unchanged; benign corpus ran " + accepted + "/"
        + GuardCorpus.accept(dialect).size());
    assertTrue(problems.isEmpty(), String.join("\n", problems));
    assertEquals(before, checksum.get());
  }

  private JsonObject execute(Driver driver, String sql) throws Exception {
    try {
      return vertx.eventBus().<JsonObject>request(SqlBus.execute(driver), SqlBus.queryRequest("g", null, sql, 5))
          .await(30, TimeUnit.SECONDS).body();
    } catch (Exception e) {
      Throwable cause = e instanceof ReplyException ? e : e.getCause() != null ? e.getCause() : e;
      return dev.sluice.sql.SqlError.from(cause).toJson();
    }
  }

  /** CHECKSUM TABLE of every table of the database: a live checksum of each table's rows. */
  private static String contentChecksums(Pool admin, String db) throws Exception {
    StringBuilder b = new StringBuilder();
    for (Row t : admin.query("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + db
        + "' ORDER BY table_name").execute().await(30, TimeUnit.SECONDS)) {
      for (Row r : admin.query("CHECKSUM TABLE " + db + "." + t.getString(0)).execute().await(30, TimeUnit.SECONDS)) {
        b.append(r.getValue(0)).append('=').append(r.getValue(1)).append('\n');
      }
    }
    return b.toString();
  }

  private static String rows(Pool pool, String sql) throws Exception {
    StringBuilder b = new StringBuilder();
    for (Row r : pool.query(sql).execute().await(30, TimeUnit.SECONDS)) {
      b.append(r.getValue(0)).append('\n');
    }
    return b.toString();
  }

  private static String list(Path dir) throws Exception {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList().toString();
    }
  }
}
