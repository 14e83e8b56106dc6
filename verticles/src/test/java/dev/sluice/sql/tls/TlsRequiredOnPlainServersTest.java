package dev.sluice.sql.tls;

import static dev.sluice.sql.tls.TlsExecutorFixture.assertConnectionError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlError;
import dev.sluice.engine.mysql.MySqlEngine;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.engine.postgres.PostgresEngine;
import dev.sluice.testing.TestDatabases;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared test servers run without TLS: there, sslmode=require is refused (never a plain
 * connection), and the default (prefer) falls back to a plain connection.
 */
class TlsRequiredOnPlainServersTest {

  @TempDir
  Path dir;

  @Test
  void postgres() throws Exception {
    TestDatabases.requirePostgres();
    String url = TestDatabases.pgUrl(TestDatabases.PG_DATABASE);
    try (TlsExecutorFixture fx = new TlsExecutorFixture(Driver.POSTGRES)) {
      fx.deploy(dir, Map.of("required", url + "?sslmode=require", "preferred", url), c -> new SqlExecutorVerticle(PostgresEngine.INSTANCE, c));
      assertConnectionError(fx.refused("required"), "TLS to the database of 'required' failed",
          "the server does not offer TLS");
      assertEquals("false", fx.value("preferred", "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"));
    }
  }

  @Test
  void mariadb() throws Exception {
    TestDatabases.requireMysql();
    String url = TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE);
    try (TlsExecutorFixture fx = new TlsExecutorFixture(Driver.MYSQL)) {
      fx.deploy(dir, Map.of("required", url + "?ssl-mode=REQUIRED", "preferred", url), c -> new SqlExecutorVerticle(MySqlEngine.INSTANCE, c));
      // the server answers the TLS hello with a plain error packet; which of the two the driver
      // reports first is a race: the TLS layer's "not an SSL/TLS record" (our connection_error) or
      // MariaDB's own "Bad handshake" (error 1043, mapped by the engine). Either way: no connection.
      SqlError e = fx.refused("required");
      assertTrue(e.getMessage().contains("the server does not offer TLS") || e.getMessage().contains("Bad handshake"),
          e.getMessage());
      assertEquals("1", fx.value("preferred", "SELECT 1"));
    }
  }
}
