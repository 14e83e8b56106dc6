package dev.sluice.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Driver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
  void queueBlockParsesAndDefaultsToFair() {
    SluiceConfig c = yaml("""
        connections:
          - id: shop
            driver: sqlite
            path: shop.db
            queue:
              order: fifo
              max_per_principal: 64
              short_reserve: 1
              short_ms: 50
              weights: {analytics: 1, support: 3}
              pipeline_depth: 3
              ride_max_ms: 50
          - id: plain
            driver: sqlite
            path: plain.db
        """, Map.of());
    QueuePolicy q = c.connections().get(0).queue();
    assertEquals(QueuePolicy.Order.FIFO, q.order());
    assertEquals(64, q.maxPerPrincipal());
    assertEquals(1, q.shortReserve());
    assertEquals(50, q.shortMs());
    assertEquals(3, q.weight("support"));
    assertEquals(1, q.weight("someone-else"));
    assertEquals(3, q.pipelineDepth());
    assertEquals(50, q.rideMaxMs());
    assertEquals(QueuePolicy.DEFAULT, c.connections().get(1).queue());
    assertEquals(QueuePolicy.DEFAULT_PIPELINE_DEPTH, c.connections().get(1).queue().pipelineDepth());
    assertEquals(q, ConnectionConfig.fromJson(c.connections().get(0).toJson()).queue(), "the bus form keeps it");
    String base = "connections:\n  - id: a\n    driver: sqlite\n    path: x\n    queue:\n";
    assertEquals("connections[0].queue.order: must be fair or fifo, got \"lifo\"", error(base + "      order: lifo\n"));
    assertTrue(error(base + "      weights: {a: 0}\n").startsWith("connections[0].queue.weights.a: must be"),
        error(base + "      weights: {a: 0}\n"));
    assertTrue(error(base + "      ride_max_ms: 0\n").startsWith("connections[0].queue.ride_max_ms: must be"),
        error(base + "      ride_max_ms: 0\n"));
    for (String depth : List.of("0", "65")) {
      assertTrue(error(base + "      pipeline_depth: " + depth + "\n").startsWith("connections[0].queue.pipeline_depth: must be"),
          error(base + "      pipeline_depth: " + depth + "\n"));
    }
  }

  @Test
  void eventLoopsAreHalfTheProcessorsUnlessSet() {
    assertEquals(Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
        yaml("server:\n  port: 0\n", Map.of()).server().resolvedEventLoops());
    assertEquals(3, yaml("server:\n  event_loops: 3\n", Map.of()).server().resolvedEventLoops());
    assertEquals(5, yaml("", Map.of("SLUICE_SERVER_EVENT_LOOPS", "5")).server().resolvedEventLoops());
    assertTrue(error("server:\n  event_loops: -1\n").startsWith("server.event_loops"), error("server:\n  event_loops: -1\n"));
  }

  @Test
  void aBodyHasThirtySecondsUnlessSet() {
    assertEquals(30_000, yaml("server:\n  port: 0\n", Map.of()).server().bodyTimeoutMs());
    assertEquals(2_000, yaml("server:\n  body_timeout_ms: 2000\n", Map.of()).server().bodyTimeoutMs());
    assertTrue(error("server:\n  body_timeout_ms: 10\n").startsWith("server.body_timeout_ms"),
        error("server:\n  body_timeout_ms: 10\n"));
  }

  @Test
  void unknownKeySuggestsTheRightOne() {
    assertEquals("server.prot: unknown key; did you mean port? (known keys here: host, port, token, allowed_hosts,"
        + " allowed_origins, max_body_bytes, session_idle_timeout_ms, sse_replay_events, slow_call_ms, max_sessions,"
        + " drain_timeout_ms, event_loops, body_timeout_ms)",
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

  @Test
  void catalogSettingsAndScanScopesParseWithDefaultsAndOverrides() {
    SluiceConfig d = yaml("", Map.of());
    assertEquals(CatalogConfig.defaults(), d.catalog());
    assertTrue(d.catalog().scanOnStart());
    SluiceConfig c = yaml("""
        catalog:
          scan_on_start: false
          scan_interval_ms: 3600000
          sample_rows: 500
          values_per_column: 20
          concurrency: 3
        connections:
          - id: wh
            driver: postgres
            url: postgresql://u@127.0.0.1/db
            schemas: [sales, archive]
        """, Map.of("SLUICE_CATALOG_SAMPLE_ROWS", "700"));
    assertEquals(new CatalogConfig(false, 3_600_000, 700, 20, 3), c.catalog());
    assertEquals(java.util.List.of("sales", "archive"), c.connections().get(0).schemas());
    assertTrue(yaml("", Map.of("SLUICE_CATALOG_SCAN_ON_START", "false")).catalog().scanOnStart() == false);
    assertEquals("catalog.scan_on_start: must be true or false, got \"maybe\"",
        error("catalog:\n  scan_on_start: maybe\n"));
    assertEquals("catalog.concurrency: must be a positive integer (at most 64), got 0", error("catalog:\n  concurrency: 0\n"));
    assertEquals("connections[0].schemas: a sqlite connection scans its own file; schemas applies to postgres and "
        + "mysql", error("connections:\n  - id: a\n    driver: sqlite\n    path: x\n    schemas: [main]\n"));
  }

  @Test
  void ingestSettingsAndTheOptionalModel() {
    assertEquals(IngestConfig.defaults(), yaml("", Map.of()).ingest());
    IngestConfig c = yaml("""
        ingest:
          max_queue: 10
          concurrency: 3
          model:
            url: http://127.0.0.1:8080/v1/
            api_key: ${MODEL_KEY}
            model: small
        """, Map.of("MODEL_KEY", "sk-secret", "SLUICE_INGEST_MAX_CONTENT_BYTES", "1000")).ingest();
    assertEquals(10, c.maxQueue());
    assertEquals(3, c.concurrency());
    assertEquals(1000, c.maxContentBytes());
    assertEquals(new IngestConfig.Model("http://127.0.0.1:8080/v1", "sk-secret", "small", 20_000), c.model());
    assertTrue(!c.toString().contains("sk-secret"), c.toString());
    assertEquals("ingest.model.url: is required when ingest.model is configured",
        error("ingest:\n  model:\n    model: x\n"));
    assertEquals("ingest.model.model: is required", error("ingest:\n  model:\n    url: http://h/v1\n"));
    assertTrue(error("", Map.of("SLUICE_INGEST_MODEL", "x")).startsWith("SLUICE_INGEST_MODEL: ingest.model is a section"));
    assertEquals(IngestConfig.DEFAULT_KEEP_RUNS_MS, c.keepRunsMs());
    assertEquals(0, yaml("ingest:\n  keep_runs_ms: 0\n", Map.of()).ingest().keepRunsMs());
    assertEquals(86_400_000, yaml("", Map.of("SLUICE_INGEST_KEEP_RUNS_MS", "86400000")).ingest().keepRunsMs());
    assertEquals("ingest.keep_runs_ms: must be 0 (keep runs forever) or at least 1000, got 500",
        error("ingest:\n  keep_runs_ms: 500\n"));
  }

  @Test
  void principalsKeepOnlyTokenDigestsAndValidateEverything() {
    String hash = "sha256:" + "ab".repeat(32);
    SluiceConfig c = yaml("""
        connections:
          - {id: shop, driver: sqlite, path: s.db}
          - {id: crm, driver: sqlite, path: c.db}
        principals:
          - name: analyst
            tokens: ["${ANALYST_TOKEN}", "%s"]
            connections: [shop]
          - name: ops
            tokens: [sluice_0123456789abcdef]
            operator: true
        """.formatted(hash), Map.of("ANALYST_TOKEN", "sluice_analyst-token-value"));
    PrincipalConfig analyst = c.principals().get(0);
    assertTrue(c.principals().get(1).operator() && !analyst.operator(), "operator: true opens the console");
    assertEquals(List.of(Tokens.sha256Hex("sluice_analyst-token-value"), "ab".repeat(32)), analyst.tokenSha256());
    assertTrue(analyst.mayUse("shop") && !analyst.mayUse("crm"));
    assertTrue(c.principals().get(1).mayUse("crm"));
    assertTrue(!c.toString().contains("sluice_analyst-token-value") && !analyst.toString().contains("abab"),
        analyst.toString());
    String base = "connections:\n  - {id: shop, driver: sqlite, path: s.db}\nprincipals:\n";
    assertEquals("principals[0].tokens[0]: a token must be at least 16 characters; generate one with "
        + "`java -jar sluice.jar token new <principal>`", error(base + "  - {name: a, tokens: [short]}\n"));
    assertEquals("principals[0].connections[0]: no connection \"crm\"; configured: [shop]",
        error(base + "  - {name: a, tokens: [sluice_0123456789abcdef], connections: [crm]}\n"));
    assertEquals("principals[1].tokens[0]: the same token is also configured at principals[0].tokens[0]; every "
        + "token must identify one principal", error(base + "  - {name: a, tokens: [sluice_0123456789abcdef]}\n"
        + "  - {name: b, tokens: [sluice_0123456789abcdef]}\n"));
    assertTrue(error(base + "  - {name: default, tokens: [sluice_0123456789abcdef]}\n").contains("reserved"));
    assertEquals("principals[0].tokens: needs at least one token (generate one with `java -jar sluice.jar token "
        + "new a`)", error(base + "  - {name: a}\n"));
  }

  @Test
  void limitsApplyGloballyAndPerPrincipal() {
    SluiceConfig c = yaml("""
        limits: {queries_per_minute: 120, rows_per_hour: 1000000}
        principals:
          - name: bot
            tokens: ["sluice_0123456789abcdef"]
            limits: {queries_per_minute: 10, concurrent_queries: 2}
          - name: human
            tokens: ["sluice_fedcba9876543210"]
        """, Map.of());
    assertEquals(new LimitsConfig(120, 1_000_000, 0), c.limits());
    assertEquals(new LimitsConfig(10, 0, 2), c.principals().get(0).limits());
    assertNull(c.principals().get(1).limits(), "falls back to the top-level limits");
    assertEquals(LimitsConfig.UNLIMITED, yaml("", Map.of()).limits());
    assertTrue(error("limits: {queries_per_second: 1}\n").startsWith("limits.queries_per_second: unknown key"));
  }

  @Test
  void tablePoliciesNameRealConnectionsAndQualifiedColumns() {
    String base = "connections:\n  - {id: shop, driver: sqlite, path: s.db}\nprincipals:\n  - name: a\n"
        + "    tokens: [sluice_0123456789abcdef]\n    tables:\n";
    SluiceConfig c = yaml(base + "      shop: {allow: [\"main.*\"], deny: [payments], deny_columns: [customers.email]}\n",
        Map.of());
    assertEquals(new TableRules(List.of("main.*"), List.of("payments"), List.of("customers.email")),
        c.principals().get(0).tables().get("shop"));
    assertEquals("principals[0].tables.crm: no connection \"crm\"; configured: [shop]",
        error(base + "      crm: {deny: [x]}\n"));
    assertTrue(error(base + "      shop: {deny_columns: [email]}\n").contains("name the table too"));
    assertTrue(error(base + "      shop: {hide: [x]}\n").startsWith("principals[0].tables.shop.hide: unknown key"));
  }

  /** Test mode: the suites run with sluice.loopback_only=true, so no test can send cluster traffic off the machine. */
  @Test
  void clusterTrafficStaysOnLoopbackAndMulticastIsRefused() {
    assertEquals("true", System.getProperty(ClusterConfig.LOOPBACK_ONLY_PROPERTY), "surefire sets test mode");
    ClusterConfig off = yaml("", Map.of()).cluster();
    assertFalse(off.enabled());
    ClusterConfig c = yaml("cluster:\n  enabled: true\n  name: shop\n  port: 5801\n  members: [127.0.0.1:5801, "
        + "'127.0.0.2:5802', 'localhost:5803']\n", Map.of()).cluster();
    assertEquals(List.of("127.0.0.1:5801", "127.0.0.2:5802", "localhost:5803"), c.members());
    assertEquals(List.of("127.0.0.1:5802"), yaml("cluster: {port: 5802}\n", Map.of()).cluster().members(),
        "no members listed: this node alone");

    assertEquals(c.resolvedNodeId(), yaml("cluster:\n  port: 5801\n", Map.of()).cluster().resolvedNodeId(),
        "the same address gives the same node id after a restart");
    assertNotEquals(c.resolvedNodeId(), yaml("cluster:\n  port: 5802\n", Map.of()).cluster().resolvedNodeId());
    assertEquals("east-1", yaml("cluster:\n  node_id: east-1\n", Map.of()).cluster().resolvedNodeId());
    assertTrue(error("cluster:\n  node_id: a.b\n").startsWith("cluster.node_id: must be"));
    assertTrue(error("cluster:\n  multicast: {enabled: true}\n").startsWith("cluster.multicast: multicast and "
        + "automatic discovery are not supported"));
    assertTrue(error("cluster:\n  discovery: kubernetes\n").startsWith("cluster.discovery:"));
    assertTrue(error("cluster:\n  host: db.example\n").startsWith("cluster.host: \"db.example\" is not a loopback"));
    assertTrue(error("cluster:\n  members: [127.0.0.1:5701, db.example:5701]\n")
        .startsWith("cluster.members[1]: \"db.example:5701\" is not on loopback"));
    assertTrue(error("cluster:\n  members: [127.0.0.1]\n").startsWith("cluster.members[0]: must be host:port"));
    assertTrue(error("cluster:\n  members: []\n").startsWith("cluster.members: list every member"));
    assertTrue(error("cluster:\n  allow_non_loopback: true\n  host: db.example\n  members: ['db.example:5701']\n")
        .startsWith("cluster.allow_non_loopback: refused: sluice.loopback_only is set (test mode)"));
    assertThrows(ConfigException.class, () -> ClusterConfig.disabled().with(true, null, "0.0.0.0", null, null, null),
        "command-line options are checked the same way");
  }

  @Test
  void stateStoreIsADirectoryOrPostgres() {
    StateConfig d = yaml("", Map.of()).state();
    assertEquals("directory", d.store());
    assertFalse(d.shared());
    StateConfig pg = yaml("state:\n  store: postgres\n  postgres_url: postgresql://u:secret@127.0.0.1/db\n"
        + "  lease_ms: 5000\n", Map.of()).state();
    assertTrue(pg.shared());
    assertEquals(5000, pg.leaseMs());
    assertEquals("sluice_state", pg.postgresTable());
    assertFalse(pg.toString().contains("secret"), "the URL may carry a password");
    assertEquals("postgresql://u:secret@127.0.0.1/db", yaml("state:\n  store: postgres\n  postgres_url: "
        + "postgresql://u:secret@127.0.0.1/db\n", Map.of()).audit().postgresUrl(), "audit joins the shared store");
    assertEquals("postgresql://a@127.0.0.1/audit", yaml("state:\n  store: postgres\n  postgres_url: "
        + "postgresql://u@127.0.0.1/db\naudit:\n  postgres_url: postgresql://a@127.0.0.1/audit\n", Map.of())
        .audit().postgresUrl(), "unless it names its own");
    assertTrue(error("state:\n  store: postgres\n").startsWith("state.postgres_url: is required"));
    assertTrue(error("state:\n  store: redis\n").startsWith("state.store: must be directory or postgres"));
    assertTrue(error("state:\n  store: postgres\n  postgres_url: mysql://x/y\n").startsWith("state.postgres_url"));
    assertTrue(error("state:\n  lease_ms: 10\n").startsWith("state.lease_ms"));
    assertEquals("postgres", yaml("", Map.of("SLUICE_STATE_STORE", "postgres",
        "SLUICE_STATE_POSTGRES_URL", "postgresql://127.0.0.1/db")).state().store());
  }
}
