package dev.sluice.sql.tls;

import static dev.sluice.sql.tls.TlsExecutorFixture.assertConnectionError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlError;
import dev.sluice.engine.mysql.MySqlEngine;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestCertificates;
import dev.sluice.testing.ThrowawayMariaDb;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * MariaDB over TLS against a server of our own started with {@code require_secure_transport}: the
 * mysql client's parameter names (ssl-mode, ssl-ca, ssl-cert, ssl-key) and libpq's both work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MariaDbTlsTest {

  @TempDir
  static Path dir;

  private ThrowawayMariaDb db;
  private TlsExecutorFixture fx;

  @BeforeAll
  void start() throws Exception {
    TestCertificates certs = TestCertificates.create(dir.resolve("certs"));
    db = ThrowawayMariaDb.start(certs);
    String user = ThrowawayMariaDb.USER + ":" + ThrowawayMariaDb.PASSWORD;
    Map<String, String> urls = new LinkedHashMap<>();
    urls.put("identity", db.url(user, "127.0.0.1", "ssl-mode=VERIFY_IDENTITY&ssl-ca=certs/ca.crt"));
    urls.put("full", db.url(user, "127.0.0.1", "sslmode=verify-full&sslrootcert=certs/ca.crt"));
    urls.put("wrongca", db.url(user, "127.0.0.1", "ssl-mode=VERIFY_IDENTITY&ssl-ca=certs/wrong-ca.crt"));
    urls.put("mismatch", db.url(user, "localhost", "ssl-mode=VERIFY_IDENTITY&ssl-ca=certs/ca.crt"));
    urls.put("caonly", db.url(user, "localhost", "ssl-mode=VERIFY_CA&ssl-ca=certs/ca.crt"));
    urls.put("required", db.url(user, "127.0.0.1", "ssl-mode=REQUIRED"));
    urls.put("plain", db.url(user, "127.0.0.1", "ssl-mode=DISABLED"));
    urls.put("clientcert", db.url(TestCertificates.CLIENT_USER, "127.0.0.1",
        "ssl-mode=VERIFY_IDENTITY&ssl-ca=certs/ca.crt&ssl-cert=certs/client.crt&ssl-key=certs/client.key"));
    urls.put("nocert", db.url(TestCertificates.CLIENT_USER, "127.0.0.1", "ssl-mode=VERIFY_IDENTITY&ssl-ca=certs/ca.crt"));
    fx = new TlsExecutorFixture(Driver.MYSQL);
    fx.deploy(dir, urls, c -> new SqlExecutorVerticle(MySqlEngine.INSTANCE, c));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (fx != null) {
        fx.close();
      }
    } finally {
      if (db != null) {
        db.close();
      }
    }
  }

  private static final String CIPHER = "SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS"
      + " WHERE VARIABLE_NAME = 'SSL_CIPHER'";

  @Test
  void verifyIdentityReachesTheServerOverTls() throws Exception {
    assertFalse(fx.value("identity", CIPHER).isBlank(), "no TLS cipher in use");
    assertFalse(fx.value("full", CIPHER).isBlank(), "libpq's names work on mysql URLs too");
    assertEquals("up", fx.info("identity").getString("status"));
  }

  @Test
  void aCertificateFromAnotherCaIsRefused() {
    assertConnectionError(fx.refused("wrongca"), "TLS to the database of 'wrongca' failed",
        "not signed by the CA in sslrootcert (" + dir.resolve("certs/wrong-ca.crt") + ")");
  }

  @Test
  void aHostTheCertificateDoesNotNameIsRefusedUnderVerifyIdentity() {
    assertConnectionError(fx.refused("mismatch"), "does not name the host localhost");
  }

  @Test
  void verifyCaAndRequiredConnectOverTls() throws Exception {
    assertFalse(fx.value("caonly", CIPHER).isBlank());
    assertFalse(fx.value("required", CIPHER).isBlank());
  }

  @Test
  void aPlainConnectionIsRefusedByTheServer() throws Exception {
    // MariaDB 10.11 answers a plain login under require_secure_transport with "Access denied"; the
    // same user and password over TLS get in, so the transport is what was refused
    SqlError e = fx.refused("plain");
    assertTrue(e.getMessage().contains("Access denied") || e.getMessage().contains("insecure transport"),
        e.getMessage());
    assertEquals(ThrowawayMariaDb.USER + "@%", fx.value("required", "SELECT CURRENT_USER()"));
  }

  @Test
  void aClientCertificateIsPresentedWhenConfigured() throws Exception {
    assertTrue(fx.value("clientcert", "SELECT CURRENT_USER()").startsWith(TestCertificates.CLIENT_USER + "@"));
    SqlError without = fx.refused("nocert");
    assertTrue(without.getMessage().contains("Access denied"), without.getMessage());
  }
}
