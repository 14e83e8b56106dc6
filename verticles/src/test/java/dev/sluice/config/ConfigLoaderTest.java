package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Driver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  @TempDir
  Path dir;

  private SluiceConfig yaml(String text, Map<String, String> env) {
    return ConfigLoader.fromYaml(text, env, dir);
  }

  private String error(String text) {
    return error(text, Map.of());
  }

  private String error(String text, Map<String, String> env) {
    return assertThrows(ConfigException.class, () -> yaml(text, env)).getMessage();
  }

  @Test
  void noConfigMeansTheDemo() {
    SluiceConfig c = ConfigLoader.load(null, Map.of());
    assertTrue(c.demo());
    assertEquals(1, c.connections().size());
    ConnectionConfig demo = c.connections().get(0);
    assertEquals("demo", demo.id());
    assertEquals(Driver.SQLITE, demo.driver());
    assertEquals(c.stateDir().resolve("demo.sqlite").toString(), demo.path());
    assertEquals(7878, c.server().port());
    assertEquals("127.0.0.1", c.server().host());
    assertNull(c.server().token());
    assertEquals(30_000, demo.queryTimeoutMs());
  }

  @Test
  void shippedConfigLoads() {
    Path conf = Path.of("..", "conf", "sluice.yaml");
    SluiceConfig c = ConfigLoader.load(conf, Map.of());
    assertTrue(c.demo());
    assertEquals(7878, c.server().port());
  }

  @Test
  void fullConnectionParses() {
    SluiceConfig c = yaml("""
        server:
          port: 9000
          token: ${TOK}
          allowed_origins: [http://localhost:3000]
        state:
          dir: st
        connections:
          - id: shop
            driver: postgres
            url: postgresql://analyst@127.0.0.1:5432/shop
            password: ${PG_PW:-fallback}
            query_timeout_ms: 5000
            max_rows: 50
          - id: local
            driver: sqlite
            path: dbs/x.sqlite
        """, Map.of("TOK", "t0k"));
    assertFalse(c.demo());
    assertEquals(9000, c.server().port());
    assertEquals("t0k", c.server().token());
    assertEquals(dir.resolve("st"), c.stateDir());
    ConnectionConfig shop = c.connection("shop").orElseThrow();
    assertEquals("fallback", shop.password());
    assertEquals(5000, shop.queryTimeoutMs());
    assertEquals(50, shop.maxRowsDefault());
    assertEquals(dir.resolve("dbs/x.sqlite").toString(), c.connection("local").orElseThrow().path());
    assertFalse(shop.toString().contains("fallback"));
  }

  @Test
  void unknownKeySuggestsTheRightOne() {
    assertEquals("server.prot: unknown key; did you mean port? (known keys here: host, port, token, allowed_hosts,"
        + " allowed_origins, max_body_bytes, session_idle_timeout_ms, sse_replay_events, slow_call_ms, max_sessions)",
        error("server:\n  prot: 1\n"));
    assertTrue(error("connections:\n  - id: a\n    driver: sqlite\n    path: x\n    query_timeout: 5\n")
        .startsWith("connections[0].query_timeout: unknown key; did you mean query_timeout_ms?"));
  }

  @Test
  void typeAndRangeErrorsNameTheKey() {
    assertEquals("server.port: must be an integer, got \"abc\"", error("server:\n  port: abc\n"));
    assertEquals("server.port: must be between 0 and 65535, got 70000", error("server:\n  port: 70000\n"));
    String base = "connections:\n  - id: a\n    driver: sqlite\n    path: x\n";
    assertEquals("connections[0].query_timeout_ms: must be a positive integer (at most 86400000), got 0",
        error(base + "    query_timeout_ms: 0\n"));
    assertEquals("connections[0].query_timeout_ms: must be a positive integer (at most 86400000), got -5",
        error(base + "    query_timeout_ms: -5\n"));
    assertEquals("connections[0].query_timeout_ms: must be an integer, got 1.5",
        error(base + "    query_timeout_ms: 1.5\n"));
    assertEquals("connections[0].max_rows: must not exceed max_rows_ceiling (100), got 500",
        error(base + "    max_rows: 500\n    max_rows_ceiling: 100\n"));
  }

  @Test
  void requiredFieldsDriversAndUrls() {
    assertEquals("connections[0].driver: is required", error("connections:\n  - id: a\n"));
    assertEquals("connections[0].driver: must be one of postgres, mysql, sqlite, got \"oracle\"",
        error("connections:\n  - id: a\n    driver: oracle\n"));
    assertEquals("connections[0].path: is required", error("connections:\n  - id: a\n    driver: sqlite\n"));
    assertEquals("connections[0].url: is required", error("connections:\n  - id: a\n    driver: postgres\n"));
    assertEquals("connections[0].url: a postgres connection needs a postgresql:// URL, got \"mysql://u:***@h/db\"",
        error("connections:\n  - id: a\n    driver: postgres\n    url: mysql://u:hunter2@h/db\n"));
    assertEquals("connections[0].url: names no database (scheme://user@host:port/DATABASE): \"mysql://h:3306\"",
        error("connections:\n  - id: a\n    driver: mysql\n    url: mysql://h:3306\n"));
  }

  @Test
  void duplicateIdsAndBadOrigins() {
    assertEquals("connections[1].id: duplicate connection id \"a\" (also at connections[0].id)",
        error("connections:\n  - {id: a, driver: sqlite, path: x}\n  - {id: a, driver: sqlite, path: y}\n"));
    assertTrue(error("server:\n  allowed_origins: [localhost:3000]\n")
        .startsWith("server.allowed_origins[0]: must be a full origin"));
  }

  @Test
  void envReferencesAndOverrides() {
    assertEquals("server.token: environment variable SECRET_TOKEN is not set (write ${SECRET_TOKEN:-default} to give a default)",
        error("server:\n  token: ${SECRET_TOKEN}\n"));
    assertEquals(8123, yaml("server:\n  port: 9000\n", Map.of("SLUICE_SERVER_PORT", "8123")).server().port());
    assertEquals("SLUICE_SERVER_PORT: must be an integer, got \"x\"",
        error("", Map.of("SLUICE_SERVER_PORT", "x")));
    assertTrue(error("", Map.of("SLUICE_SERVER_PROT", "1")).startsWith("SLUICE_SERVER_PROT: environment override"));
    assertEquals("env-tok", yaml("", Map.of("SLUICE_SERVER_TOKEN", "env-tok")).server().token());
  }

  @Test
  void yamlSyntaxErrorsSayWhere() {
    String msg = error("server:\n  port: [1, 2\n");
    assertTrue(msg.startsWith("--config: not valid YAML at line"), msg);
  }

  @Test
  void missingFileIsOneLine() throws Exception {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(dir.resolve("nope.yaml"), Map.of()));
    assertEquals("--config", e.key());
    assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    Path f = Files.writeString(dir.resolve("c.yaml"), "connections:\n  - {id: x, driver: sqlite, path: rel.db}\n");
    assertEquals(dir.resolve("rel.db").toString(), ConfigLoader.load(f, Map.of()).connections().get(0).path());
  }

  @Test
  void passwordsNeverAppear() {
    String msg = error("connections:\n  - id: a\n    driver: postgres\n    url: postgresql://u:s3cr3t@h/db\n    pool_size: 0\n");
    assertFalse(msg.contains("s3cr3t"), msg);
    SluiceConfig c = yaml("connections:\n  - {id: a, driver: postgres, url: 'postgresql://u:s3cr3t@h/db'}\n", Map.of());
    assertFalse(c.toString().contains("s3cr3t"));
    SluiceConfig t = yaml("server: {token: 'tok-s3cr3t'}\n", Map.of());
    assertEquals("tok-s3cr3t", t.server().token());
    assertFalse(t.toString().contains("tok-s3cr3t"), t.toString());
  }

  @Test
  void loopbackDetection() {
    assertTrue(ConfigLoader.isLoopback("127.0.0.1"));
    assertTrue(ConfigLoader.isLoopback("127.1.2.3"));
    assertTrue(ConfigLoader.isLoopback("localhost"));
    assertTrue(ConfigLoader.isLoopback("::1"));
    assertTrue(ConfigLoader.isLoopback("[::1]"));
    assertFalse(ConfigLoader.isLoopback("0.0.0.0"));
    assertFalse(ConfigLoader.isLoopback("example.com"));
    assertFalse(ConfigLoader.isLoopback("127.0.0.256"));
  }
}
