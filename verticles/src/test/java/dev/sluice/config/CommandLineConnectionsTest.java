package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.sql.Driver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineConnectionsTest {

  @TempDir
  Path dir;

  private SluiceConfig load(String yaml, String... specs) {
    return ConfigLoader.fromYaml(yaml, Map.of("PW", "s3cret"), dir, List.of(specs));
  }

  private String error(String yaml, String... specs) {
    return assertThrows(ConfigException.class, () -> load(yaml, specs)).getMessage();
  }

  @Test
  void eachSpecBecomesAConnectionWithDefaultsAndNoDemo() {
    SluiceConfig c = load("", "shop=postgresql://analyst:${PW}@db.example:5432/shop?sslmode=require",
        "crm=mariadb://r@127.0.0.1/crm", "notes=sqlite:notes.db", "abs=sqlite:///var/lib/x.db");
    assertFalse(c.demo());
    List<ConnectionConfig> cs = c.connections();
    assertEquals(List.of("shop", "crm", "notes", "abs"), cs.stream().map(ConnectionConfig::id).toList());
    assertEquals(Driver.POSTGRES, cs.get(0).driver());
    assertEquals("postgresql://analyst:s3cret@db.example:5432/shop?sslmode=require", cs.get(0).url());
    assertEquals(ConnectionConfig.DEFAULT_POOL_SIZE, cs.get(0).poolSize());
    assertEquals(Driver.MYSQL, cs.get(1).driver());
    assertEquals(Path.of("").toAbsolutePath().resolve("notes.db").toString(), cs.get(2).path(),
        "relative to the working directory, not to a config file");
    assertEquals("/var/lib/x.db", cs.get(3).path());
  }

  @Test
  void specsJoinTheFilesConnections() {
    SluiceConfig c = load("connections:\n  - id: a\n    driver: sqlite\n    path: a.db\n", "b=sqlite:b.db");
    assertEquals(List.of("a", "b"), c.connections().stream().map(ConnectionConfig::id).toList());
    assertEquals("--connection a.id: duplicate connection id \"a\" (also at connections[0].id)",
        error("connections:\n  - id: a\n    driver: sqlite\n    path: a.db\n", "a=sqlite:other.db"));
  }

  @Test
  void mistakesNameTheSpec() {
    assertEquals("--connection: expected ID=URL (e.g. shop=postgresql://analyst@db:5432/shop or notes=sqlite:notes.db),"
        + " got \"postgresql://u:***@h/db\"", error("", "postgresql://u:pw@h/db"));
    assertEquals("--connection x: the URL must start with postgresql://, mysql:// or sqlite:, got \"oracle://h/db\"",
        error("", "x=oracle://h/db"));
    assertEquals("--connection x: unknown URL parameter \"sslmod\"; did you mean sslmode? (known for postgres: "
        + "sslmode, sslrootcert, sslcert, sslkey)", error("", "x=postgresql://u@h/db?sslmod=require"));
    assertEquals("--connection bad id.id: must be 1-64 letters, digits, '_' or '-', got \"bad id\"",
        error("", "bad id=sqlite:x.db"));
  }
}
