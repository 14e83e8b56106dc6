package dev.sluice.sql.tls;

import static dev.sluice.sql.tls.TlsExecutorFixture.assertConnectionError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlError;
import dev.sluice.engine.postgres.PostgresEngine;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestCertificates;
import dev.sluice.testing.ThrowawayPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL over TLS against a server of our own that accepts TLS only: verify-full succeeds on
 * the host the certificate names, and a wrong CA, a host-name mismatch and a plain connection are
 * each refused with a message that says why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTlsTest {

  @TempDir
  static Path dir;

  private TestCertificates certs;
  private ThrowawayPostgres pg;
  private TlsExecutorFixture fx;

  @BeforeAll
  void start() throws Exception {
    certs = TestCertificates.create(dir.resolve("certs"));
    pg = ThrowawayPostgres.start(certs);
    Map<String, String> urls = new LinkedHashMap<>();
    // relative to the config file's directory, as an operator would write them
    String ca = "sslrootcert=certs/ca.crt";
    urls.put("full", pg.url("postgres", "127.0.0.1", "sslmode=verify-full&" + ca));
    urls.put("wrongca", pg.url("postgres", "127.0.0.1", "sslmode=verify-full&sslrootcert=certs/wrong-ca.crt"));
    urls.put("mismatch", pg.url("postgres", "localhost", "sslmode=verify-full&" + ca));
    urls.put("caonly", pg.url("postgres", "localhost", "sslmode=verify-ca&" + ca));
    urls.put("require", pg.url("postgres", "127.0.0.1", "sslmode=require"));
    urls.put("default", pg.url("postgres", "127.0.0.1", ""));
    urls.put("plain", pg.url("postgres", "127.0.0.1", "sslmode=disable"));
    urls.put("clientcert", pg.url(TestCertificates.CLIENT_USER, "127.0.0.1",
        "sslmode=verify-full&" + ca + "&sslcert=certs/client.crt&sslkey=certs/client.key"));
    urls.put("nocert", pg.url(TestCertificates.CLIENT_USER, "127.0.0.1", "sslmode=verify-full&" + ca));
    fx = new TlsExecutorFixture(Driver.POSTGRES);
    fx.deploy(dir, urls, c -> new SqlExecutorVerticle(PostgresEngine.INSTANCE, c));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (fx != null) {
        fx.close();
      }
    } finally {
      if (pg != null) {
        pg.close();
      }
    }
  }

  private static final String SSL_IN_USE = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";

  @Test
  void verifyFullReachesTheServerOverTls() throws Exception {
    assertEquals("true", fx.value("full", SSL_IN_USE));
    assertTrue(fx.value("full", "SELECT version FROM pg_stat_ssl WHERE pid = pg_backend_pid()").startsWith("TLS"));
    assertEquals("up", fx.info("full").getString("status"));
  }

  @Test
  void aCertificateFromAnotherCaIsRefused() throws Exception {
    SqlError e = fx.refused("wrongca");
    assertConnectionError(e, "TLS to the database of 'wrongca' failed",
        "not signed by the CA in sslrootcert (" + dir.resolve("certs/wrong-ca.crt") + ")");
    assertEquals("down", fx.info("wrongca").getString("status"));
  }

  @Test
  void aHostTheCertificateDoesNotNameIsRefusedUnderVerifyFull() {
    assertConnectionError(fx.refused("mismatch"), "does not name the host localhost", "verify-full");
  }

  @Test
  void verifyCaChecksTheChainButNotTheHost() throws Exception {
    assertEquals("true", fx.value("caonly", SSL_IN_USE));
  }

  @Test
  void requireAndTheDefaultPreferEncryptWithoutVerifying() throws Exception {
    assertEquals("true", fx.value("require", SSL_IN_USE));
    assertEquals("true", fx.value("default", SSL_IN_USE));
  }

  @Test
  void aPlainConnectionIsRefusedByTheTlsOnlyServer() {
    SqlError e = fx.refused("plain");
    assertTrue(e.getMessage().contains("no pg_hba.conf entry") && e.getMessage().contains("no encryption"),
        e.getMessage());
  }

  @Test
  void aClientCertificateAuthenticatesItsUser() throws Exception {
    assertEquals(TestCertificates.CLIENT_USER, fx.value("clientcert", "SELECT current_user"));
    SqlError without = fx.refused("nocert");
    assertTrue(without.getMessage().contains("certificate"), without.getMessage());
  }

  @Test
  void theServerAcceptedOnlyTls() throws Exception {
    // the fixture itself: a plain line in pg_hba.conf would make every refusal above meaningless
    assertTrue(Files.exists(dir.resolve("certs/ca.crt")));
    assertEquals("0", fx.value("full", "SELECT count(*) FROM pg_hba_file_rules WHERE type = 'host'"));
  }
}
