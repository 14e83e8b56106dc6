package dev.sluice.sql.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.sql.Driver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionTlsTest {

  @TempDir
  Path dir;

  private static ConnectionTls pg(String query) {
    return ConnectionTls.fromUrl("postgresql://u@h:5432/db" + query, Driver.POSTGRES);
  }

  private static String refusal(String query, Driver driver) {
    String scheme = driver == Driver.POSTGRES ? "postgresql" : "mysql";
    return assertThrows(UrlParameterException.class,
        () -> ConnectionTls.fromUrl(scheme + "://u@h/db" + query, driver)).getMessage();
  }

  @Test
  void withoutParametersTlsIsPreferredLikeLibpq() {
    ConnectionTls tls = pg("");
    assertEquals(TlsMode.PREFER, tls.mode());
    assertFalse(tls.verifiesChain());
    assertTrue(tls.sslOptions("x").isTrustAll(), "prefer encrypts without checking, as psql does");
  }

  @Test
  void libpqParametersAreRead() {
    ConnectionTls tls = pg("?sslmode=verify-full&sslrootcert=/etc/ca%20dir/ca.pem&sslcert=/c.pem&sslkey=/k+1.pem");
    assertEquals(new ConnectionTls(TlsMode.VERIFY_FULL, "/etc/ca dir/ca.pem", "/c.pem", "/k+1.pem"), tls);
    assertTrue(tls.verifiesHost());
    assertEquals("HTTPS", tls.sslOptions("x").getHostnameVerificationAlgorithm());
    assertFalse(tls.sslOptions("x").isTrustAll());
    assertEquals("", pg("?sslmode=verify-ca&sslrootcert=/ca").sslOptions("x").getHostnameVerificationAlgorithm());
    assertTrue(pg("?sslmode=require&sslrootcert=/ca").verifiesChain(), "libpq: require with a root cert verifies");
    assertFalse(pg("?sslmode=require").verifiesChain());
  }

  @Test
  void mysqlTakesItsOwnNamesAndLibpqs() {
    ConnectionTls a = ConnectionTls.fromUrl("mysql://u@h/db?ssl-mode=VERIFY_IDENTITY&ssl-ca=/ca.pem", Driver.MYSQL);
    ConnectionTls b = ConnectionTls.fromUrl("mysql://u@h/db?sslmode=verify-full&sslrootcert=/ca.pem", Driver.MYSQL);
    assertEquals(a, b);
    assertEquals(TlsMode.REQUIRE, ConnectionTls.fromUrl("mysql://u@h/db?ssl-mode=required", Driver.MYSQL).mode());
  }

  @Test
  void everyMistakeNamesItsParameter() {
    assertEquals("unknown URL parameter \"sslmod\"; did you mean sslmode? (known for postgres: sslmode, "
        + "sslrootcert, sslcert, sslkey)", refusal("?sslmod=verify-full", Driver.POSTGRES));
    assertTrue(refusal("?ssl-mode=REQUIRED", Driver.POSTGRES).startsWith("unknown URL parameter \"ssl-mode\""),
        "mysql's names are not postgres parameters");
    assertTrue(refusal("?application_name=x", Driver.POSTGRES).startsWith("unknown URL parameter \"application_name\""));
    assertEquals("sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, got \"strict\"",
        refusal("?sslmode=strict", Driver.POSTGRES));
    assertTrue(refusal("?ssl-mode=allow", Driver.MYSQL).startsWith("ssl-mode must be one of disable, prefer"));
    assertEquals("sslmode=verify-full needs sslrootcert=/path/to/ca.pem, the CA that signed the server's certificate",
        refusal("?sslmode=verify-full", Driver.POSTGRES));
    assertEquals("ssl-mode=verify-full needs ssl-ca=/path/to/ca.pem, the CA that signed the server's certificate",
        refusal("?ssl-mode=VERIFY_IDENTITY", Driver.MYSQL));
    assertEquals("a client certificate needs both sslcert and sslkey; sslkey is missing",
        refusal("?sslmode=require&sslcert=/c.pem", Driver.POSTGRES));
    assertEquals("sslrootcert has no effect with sslmode=disable; remove one of them",
        refusal("?sslmode=disable&sslrootcert=/ca", Driver.POSTGRES));
    assertEquals("URL parameter ssl-mode is given twice (ssl-mode and sslmode mean the same)",
        refusal("?sslmode=require&ssl-mode=REQUIRED", Driver.MYSQL));
    assertEquals("URL parameter sslmode has no value", refusal("?sslmode=", Driver.POSTGRES));
    assertEquals("has more than 16 parameters", refusal("?" + "sslmode=require&".repeat(17), Driver.POSTGRES));
  }

  @Test
  void theConfigStopsTheStartNamingKeyAndParameter() throws Exception {
    String base = "connections:\n  - id: a\n    driver: postgres\n    url: \"postgresql://u@h:5432/db?";
    ConfigException typo = assertThrows(ConfigException.class,
        () -> ConfigLoader.fromYaml(base + "sslmode=verify-full&sslrootcert=ca.pem&sslcert_file=x\"\n", Map.of(), dir));
    assertTrue(typo.getMessage().startsWith("connections[0].url: unknown URL parameter \"sslcert_file\""),
        typo.getMessage());
    ConfigException missing = assertThrows(ConfigException.class,
        () -> ConfigLoader.fromYaml(base + "sslmode=verify-full&sslrootcert=ca.pem\"\n", Map.of(), dir));
    assertEquals("connections[0].url: sslrootcert: cannot read " + dir.resolve("ca.pem") + " (no such file)",
        missing.getMessage());
  }

  @Test
  void relativeCertificatePathsResolveAgainstTheConfigDirectory() throws Exception {
    Files.createDirectories(dir.resolve("tls dir"));
    Files.writeString(dir.resolve("tls dir/ca.pem"), "not read until a connection is made");
    String url = ConfigLoader.fromYaml("""
        state:
          store: postgres
          postgres_url: "postgresql://u@h/state?sslmode=verify-ca&sslrootcert=tls%20dir/ca.pem"
        """, Map.of(), dir).state().postgresUrl();
    assertEquals(dir.resolve("tls dir/ca.pem").toString(), ConnectionTls.fromUrl(url, Driver.POSTGRES).rootCert());
    assertNull(ConnectionTls.fromUrl("postgresql://u@h/db", Driver.POSTGRES).rootCert());
  }
}
