package dev.sluice.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the integration tests find the real PostgreSQL and MariaDB services. When a server is not
 * reachable the test is skipped with a clear message, except under {@code CI=true}, where a missing
 * server fails the test: CI must never silently skip the database tests.
 */
public final class TestDatabases {

  public static final String PG_HOST = env("SLUICE_TEST_PG_HOST", "127.0.0.1");
  public static final int PG_PORT = Integer.parseInt(env("SLUICE_TEST_PG_PORT", "5432"));
  public static final String PG_USER = env("SLUICE_TEST_PG_USER", "postgres");
  public static final String PG_DATABASE = env("SLUICE_TEST_PG_DB", "test");

  public static final String MYSQL_HOST = env("SLUICE_TEST_MYSQL_HOST", "127.0.0.1");
  public static final int MYSQL_PORT = Integer.parseInt(env("SLUICE_TEST_MYSQL_PORT", "3306"));
  public static final String MYSQL_USER = env("SLUICE_TEST_MYSQL_USER", "root");
  public static final String MYSQL_DATABASE = env("SLUICE_TEST_MYSQL_DB", "test");

  private TestDatabases() {}

  /** Skips (locally) or fails (CI) when PostgreSQL is not listening. */
  public static void requirePostgres() {
    require("PostgreSQL", PG_HOST, PG_PORT);
  }

  public static void requireMysql() {
    require("MariaDB/MySQL", MYSQL_HOST, MYSQL_PORT);
  }

  public static String pgUrl(String database) {
    return "postgresql://" + PG_USER + "@" + PG_HOST + ":" + PG_PORT + "/" + database;
  }

  public static String mysqlUrl(String database) {
    return "mysql://" + MYSQL_USER + "@" + MYSQL_HOST + ":" + MYSQL_PORT + "/" + database;
  }

  /**
   * Drops what a test created in the PostgreSQL test database, e.g. {@code "TABLE t"},
   * {@code "SEQUENCE t_seq"} ({@code IF EXISTS} is added).
   */
  public static void dropPostgres(String... objects) throws Exception {
    io.vertx.core.Vertx v = io.vertx.core.Vertx.vertx();
    io.vertx.sqlclient.Pool pg = io.vertx.pgclient.PgBuilder.pool().connectingTo(pgUrl(PG_DATABASE)).using(v).build();
    try {
      for (String o : objects) {
        int space = o.indexOf(' ');
        pg.query("DROP " + o.substring(0, space) + " IF EXISTS " + o.substring(space + 1)).execute()
            .await(10, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pg.close();
      v.close();
    }
  }

  /** A name unique to this run, for a per-test schema or database. */
  public static String uniqueName(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime() & 0xffffffL);
  }

  private static void require(String what, String host, int port) {
    boolean up;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 1_000);
      up = true;
    } catch (IOException e) {
      up = false;
    }
    if (!up) {
      String msg = what + " is not reachable on " + host + ":" + port;
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(msg + " and CI=true: database integration tests must run in CI");
      }
      Assumptions.abort(msg + "; skipping this integration test (set CI=true to make this a failure)");
    }
  }

  private static String env(String key, String def) {
    String v = System.getenv(key);
    return v == null || v.isBlank() ? def : v;
  }
}
