package dev.sluice.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sql.Driver;
import dev.sluice.sql.tls.ConnectionTls;
import dev.sluice.sql.tls.UrlParameterException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads and validates the YAML configuration. Every user mistake becomes a {@link
 * ConfigException} naming the key; nothing is silently ignored (unknown keys are errors). See
 * docs/configuration.md for the keys.
 */
public final class ConfigLoader {

  static final String DEMO_ID = "demo";
  private static final Set<String> ROOT = Set.of("server", "state", "catalog", "ingest", "audit", "limits", "principals",
      "approved_queries_dir", "connections", "cluster");
  private static final Set<String> SERVER = new LinkedHashSet<>(List.of("host", "port", "token", "allowed_hosts",
      "allowed_origins", "max_body_bytes", "session_idle_timeout_ms", "sse_replay_events", "slow_call_ms",
      "max_sessions", "drain_timeout_ms", "event_loops", "body_timeout_ms"));
  private static final Set<String> STATE = new LinkedHashSet<>(List.of("dir", "store", "postgres_url",
      "postgres_table", "lease_ms"));
  private static final Set<String> CLUSTER = new LinkedHashSet<>(List.of("enabled", "name", "host", "port", "members",
      "allow_non_loopback", "node_id"));
  private static final Set<String> CATALOG = new LinkedHashSet<>(List.of("scan_on_start", "scan_interval_ms",
      "sample_rows", "values_per_column", "concurrency"));
  private static final Set<String> INGEST = new LinkedHashSet<>(List.of("max_queue", "concurrency",
      "max_content_bytes", "model", "keep_runs_ms"));
  private static final Set<String> AUDIT = new LinkedHashSet<>(List.of("enabled", "dir", "max_file_bytes",
      "flush_ms", "buffer", "on_overflow", "postgres_url", "postgres_table"));
  private static final Set<String> PRINCIPAL = new LinkedHashSet<>(List.of("name", "tokens", "connections",
      "limits", "tables", "writes", "operator"));
  private static final Set<String> TABLE_RULES = new LinkedHashSet<>(List.of("allow", "deny", "deny_columns"));
  private static final Set<String> LIMITS = new LinkedHashSet<>(List.of("queries_per_minute", "rows_per_hour",
      "concurrent_queries"));
  private static final Set<String> INGEST_MODEL = new LinkedHashSet<>(List.of("url", "api_key", "model",
      "timeout_ms"));
  private static final Set<String> CONNECTION = new LinkedHashSet<>(List.of("id", "driver", "url", "path", "user",
      "password", "description", "pool_size", "max_wait_queue", "query_timeout_ms", "max_rows",
      "max_rows_ceiling", "schemas", "queue"));
  private static final Set<String> QUEUE = new LinkedHashSet<>(List.of("order", "max_per_principal",
      "short_reserve", "short_ms", "weights", "pipeline_depth", "ride_max_ms"));

  private ConfigLoader() {}

  /**
   * @param fileOrNull the YAML file, or null for the defaults (the embedded demo)
   * @param env environment variables, for {@code ${NAME}} references and {@code SLUICE_*} overrides
   */
  public static SluiceConfig load(Path fileOrNull, Map<String, String> env) {
    return load(fileOrNull, env, List.of());
  }

  /**
   * @param cliConnections {@code ID=URL} specs from {@code --connection}, added to the file's
   *     connections (with none in the file they replace the demo)
   */
  public static SluiceConfig load(Path fileOrNull, Map<String, String> env, List<String> cliConnections) {
    if (fileOrNull == null) {
      return fromYaml("", env, Path.of("").toAbsolutePath(), cliConnections);
    }
    String text;
    try {
      text = Files.readString(fileOrNull, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException("--config", "cannot read " + fileOrNull + " ("
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getClass().getSimpleName()) + ")");
    }
    Path base = fileOrNull.toAbsolutePath().getParent();
    return fromYaml(text, env, base, cliConnections);
  }

  /** Parses YAML text; relative paths resolve against {@code baseDir}. */
  public static SluiceConfig fromYaml(String yamlText, Map<String, String> env, Path baseDir) {
    return fromYaml(yamlText, env, baseDir, List.of());
  }

  /** Parses YAML text plus {@code --connection} specs (relative to the working directory). */
  public static SluiceConfig fromYaml(String yamlText, Map<String, String> env, Path baseDir,
      List<String> cliConnections) {
    JsonNode root;
    try {
      root = yamlText.isBlank() ? null : new YAMLMapper().readTree(yamlText);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      throw new ConfigException("--config", "not valid YAML" + where + ": " + e.getOriginalMessage().split("\n")[0]);
    }
    if (root != null && root.isNull()) {
      root = null;
    }
    if (root != null && !root.isObject()) {
      throw new ConfigException("--config", "the top level must be a mapping (server:, state:, connections:)");
    }
    ConfigNode top = new ConfigNode("", root, env);
    top.onlyKeys(ROOT);
    ConfigNode server = top.section("server");
    server.onlyKeys(SERVER);
    ConfigNode state = top.section("state");
    state.onlyKeys(STATE);
    ConfigNode catalog = top.section("catalog");
    catalog.onlyKeys(CATALOG);
    ConfigNode ingest = top.section("ingest");
    ingest.onlyKeys(INGEST);
    ConfigNode audit = top.section("audit");
    audit.onlyKeys(AUDIT);
    Map<String, String> overrides = overrides(env);

    Path stateDir = resolve(baseDir, override(overrides, "state", "dir", state.string("dir", "data")));
    ServerConfig serverConfig = server(server, overrides);
    List<ConfigNode> connectionNodes = top.list("connections");
    connectionNodes.addAll(CommandLineConnections.nodes(cliConnections, env, Path.of("").toAbsolutePath()));
    List<ConnectionConfig> connections = connections(connectionNodes, baseDir);
    boolean demo = connections.isEmpty();
    if (demo) {
      connections = List.of(new ConnectionConfig(DEMO_ID, Driver.SQLITE, null,
          stateDir.resolve("demo.sqlite").toString(), null, null,
          "Embedded demo shop dataset (generated on first start)", ConnectionConfig.DEFAULT_POOL_SIZE,
          ConnectionConfig.DEFAULT_MAX_WAIT_QUEUE, ConnectionConfig.DEFAULT_QUERY_TIMEOUT_MS,
          ConnectionConfig.DEFAULT_MAX_ROWS, ConnectionConfig.DEFAULT_MAX_ROWS_CEILING)
          // the demo is where agents explore while others run analytics: look-ups never queue behind them
          .withQueue(QueuePolicy.DEFAULT.withShortReserve(1)));
    }
    StateConfig stateConfig = state(state, overrides, stateDir, baseDir);
    return new SluiceConfig(serverConfig, stateDir, connections, demo, catalog(catalog, overrides),
        new IngestConfig(
            (int) num(overrides, ingest, "ingest", "max_queue", IngestConfig.DEFAULT_MAX_QUEUE, 1, 1_000_000),
            (int) num(overrides, ingest, "ingest", "concurrency", IngestConfig.DEFAULT_CONCURRENCY, 1, 64),
            (int) num(overrides, ingest, "ingest", "max_content_bytes", IngestConfig.DEFAULT_MAX_CONTENT_BYTES, 1,
                64L * 1024 * 1024),
            model(ingest.section("model")),
            keepRuns(num(overrides, ingest, "ingest", "keep_runs_ms", IngestConfig.DEFAULT_KEEP_RUNS_MS, 0,
                10L * 365 * 24 * 3600 * 1000), ingest)),
        audit(audit, overrides, baseDir, stateConfig),
        principals(top.list("principals"), connections, serverConfig.token()),
        limits(top.section("limits")),
        top.has("approved_queries_dir") ? resolve(baseDir, top.string("approved_queries_dir", null)) : null,
        stateConfig, cluster(top.section("cluster")));
  }

  private static StateConfig state(ConfigNode s, Map<String, String> o, Path stateDir, Path baseDir) {
    String url = override(o, "state", "postgres_url", s.string("postgres_url", null));
    if (url != null && !url.isBlank()) {
      url = checkUrl(s.key("postgres_url"), url, Driver.POSTGRES, baseDir);
    }
    return new StateConfig(stateDir, override(o, "state", "store", s.string("store", "directory")), url,
        s.string("postgres_table", StateConfig.DEFAULT_TABLE),
        num(o, s, "state", "lease_ms", StateConfig.DEFAULT_LEASE_MS, 1_000, 3_600_000));
  }

  /** Members are always listed: a multicast (or any discovery) key is refused, not ignored. */
  private static ClusterConfig cluster(ConfigNode c) {
    if (c.has("multicast") || c.has("discovery")) {
      throw new ConfigException(c.key(c.has("multicast") ? "multicast" : "discovery"), "multicast and automatic "
          + "discovery are not supported; list every member under cluster.members (TCP-IP, host:port)");
    }
    c.onlyKeys(CLUSTER);
    ClusterConfig d = ClusterConfig.disabled();
    String host = c.string("host", d.host());
    int port = (int) c.number("port", d.port(), 1, 65_535);
    return new ClusterConfig(c.bool("enabled", false), c.string("name", d.name()), host, port,
        c.has("members") ? c.strings("members") : List.of(host + ":" + port), c.bool("allow_non_loopback", false),
        c.string("node_id", null));
  }

  /** True for loopback literals and localhost; no DNS lookup is made. */
  public static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    String h = host.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
      return true;
    }
    String[] parts = h.split("\\.");
    if (parts.length != 4 || !parts[0].equals("127")) {
      return false;
    }
    for (String p : parts) {
      if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  private static ServerConfig server(ConfigNode s, Map<String, String> o) {
    String host = override(o, "server", "host", s.string("host", ServerConfig.DEFAULT_HOST));
    int port = (int) num(o, s, "server", "port", ServerConfig.DEFAULT_PORT, 0, 65535);
    String token = override(o, "server", "token", s.string("token", null));
    List<String> origins = s.strings("allowed_origins");
    for (int i = 0; i < origins.size(); i++) {
      if (!isOrigin(origins.get(i))) {
        throw new ConfigException("server.allowed_origins[" + i + "]", "must be a full origin such as "
            + "http://localhost:3000 (scheme://host[:port], no path), got \"" + origins.get(i) + "\"");
      }
    }
    return new ServerConfig(host, port, token == null || token.isEmpty() ? null : token,
        s.strings("allowed_hosts"), origins,
        num(o, s, "server", "max_body_bytes", ServerConfig.DEFAULT_MAX_BODY_BYTES, 1_024, 1L << 30),
        num(o, s, "server", "session_idle_timeout_ms", ServerConfig.DEFAULT_SESSION_IDLE_TIMEOUT_MS, 1_000,
            7L * 24 * 3600 * 1000),
        (int) num(o, s, "server", "sse_replay_events", ServerConfig.DEFAULT_SSE_REPLAY_EVENTS, 1, 100_000),
        num(o, s, "server", "slow_call_ms", ServerConfig.DEFAULT_SLOW_CALL_MS, 1, Long.MAX_VALUE),
        (int) num(o, s, "server", "max_sessions", ServerConfig.DEFAULT_MAX_SESSIONS, 1, 1_000_000),
        num(o, s, "server", "drain_timeout_ms", ServerConfig.DEFAULT_DRAIN_TIMEOUT_MS, 0, 3_600_000),
        (int) num(o, s, "server", "event_loops", ServerConfig.AUTO_EVENT_LOOPS, 0, 1_024),
        num(o, s, "server", "body_timeout_ms", ServerConfig.DEFAULT_BODY_TIMEOUT_MS, 100, 3_600_000));
  }

  private static List<ConnectionConfig> connections(List<ConfigNode> nodes, Path baseDir) {
    List<ConnectionConfig> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (ConfigNode c : nodes) {
      c.onlyKeys(CONNECTION);
      String id = c.requiredString("id");
      if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
        throw new ConfigException(c.key("id"), "must be 1-64 letters, digits, '_' or '-', got \"" + id + "\"");
      }
      String previous = seen.putIfAbsent(id, c.key("id"));
      if (previous != null) {
        throw new ConfigException(c.key("id"), "duplicate connection id \"" + id + "\" (also at " + previous + ")");
      }
      String driverName = c.requiredString("driver");
      Driver driver = Driver.parse(driverName);
      if (driver == null) {
        throw new ConfigException(c.key("driver"), "must be one of postgres, mysql, sqlite, got \"" + driverName + "\"");
      }
      String url = null;
      String path = null;
      if (driver == Driver.SQLITE) {
        path = resolve(baseDir, c.requiredString("path")).toString();
        if (c.has("url")) {
          throw new ConfigException(c.key("url"), "a sqlite connection takes path, not url");
        }
      } else {
        url = checkUrl(c.key("url"), c.requiredString("url"), driver, baseDir);
      }
      long timeout = c.number("query_timeout_ms", ConnectionConfig.DEFAULT_QUERY_TIMEOUT_MS, 1, 24L * 3600 * 1000);
      int ceiling = (int) c.number("max_rows_ceiling", ConnectionConfig.DEFAULT_MAX_ROWS_CEILING, 1, 10_000);
      int maxRows = (int) c.number("max_rows", Math.min(ConnectionConfig.DEFAULT_MAX_ROWS, ceiling), 1, 10_000);
      if (maxRows > ceiling) {
        throw new ConfigException(c.key("max_rows"), "must not exceed max_rows_ceiling (" + ceiling + "), got " + maxRows);
      }
      out.add(new ConnectionConfig(id, driver, url, path, c.string("user", null), c.string("password", null),
          c.string("description", null),
          (int) c.number("pool_size", ConnectionConfig.DEFAULT_POOL_SIZE, 1, 256),
          (int) c.number("max_wait_queue", ConnectionConfig.DEFAULT_MAX_WAIT_QUEUE, 0, 100_000),
          timeout, maxRows, ceiling, schemas(c, driver), queue(c.section("queue"))));
    }
    return out;
  }

  /** A connection's {@code queue:} block; absent means fair sharing with equal weights. */
  private static QueuePolicy queue(ConfigNode q) {
    q.onlyKeys(QUEUE);
    String orderName = q.string("order", "fair");
    QueuePolicy.Order order = QueuePolicy.Order.parse(orderName);
    if (order == null) {
      throw new ConfigException(q.key("order"), "must be fair or fifo, got \"" + orderName + "\"");
    }
    ConfigNode w = q.section("weights");
    Map<String, Integer> weights = new LinkedHashMap<>();
    for (String name : w.fieldNames()) {
      weights.put(name, (int) w.number(name, 1, 1, 1_000));
    }
    return new QueuePolicy(order, (int) q.number("max_per_principal", 0, 0, 100_000),
        (int) q.number("short_reserve", 0, 0, 255), q.number("short_ms", QueuePolicy.DEFAULT_SHORT_MS, 1, 3_600_000),
        weights, (int) q.number("pipeline_depth", QueuePolicy.DEFAULT_PIPELINE_DEPTH, 1, 64),
        q.number("ride_max_ms", QueuePolicy.DEFAULT_RIDE_MAX_MS, 1, 60_000));
  }

  private static CatalogConfig catalog(ConfigNode c, Map<String, String> o) {
    String onStart = o.get("catalog.scan_on_start");
    boolean scanOnStart = onStart == null ? c.bool("scan_on_start", true)
        : ConfigNode.parseBoolean("SLUICE_CATALOG_SCAN_ON_START", onStart);
    return new CatalogConfig(scanOnStart,
        num(o, c, "catalog", "scan_interval_ms", 0, 0, 30L * 24 * 3600 * 1000),
        (int) num(o, c, "catalog", "sample_rows", CatalogConfig.DEFAULT_SAMPLE_ROWS, 1, 1_000_000),
        (int) num(o, c, "catalog", "values_per_column", CatalogConfig.DEFAULT_VALUES_PER_COLUMN, 1, 1_000),
        (int) num(o, c, "catalog", "concurrency", CatalogConfig.DEFAULT_CONCURRENCY, 1, 64));
  }

  /** With a shared PostgreSQL state store, audit records go to the same database unless told otherwise. */
  private static AuditConfig audit(ConfigNode a, Map<String, String> o, Path baseDir, StateConfig state) {
    Path stateDir = state.dir();
    String pgUrl = auditPostgres(a, o, baseDir);
    if (pgUrl == null && state.shared()) {
      pgUrl = state.postgresUrl();
    }
    String enabled = o.get("audit.enabled");
    String policy = override(o, "audit", "on_overflow", a.string("on_overflow", "drop"));
    if (!policy.equals("drop") && !policy.equals("block")) {
      throw new ConfigException(a.key("on_overflow"), "must be drop or block, got \"" + policy + "\"");
    }
    String dir = override(o, "audit", "dir", a.string("dir", null));
    return new AuditConfig(
        enabled == null ? a.bool("enabled", true) : ConfigNode.parseBoolean("SLUICE_AUDIT_ENABLED", enabled),
        dir == null ? stateDir.resolve("audit") : resolve(baseDir, dir),
        num(o, a, "audit", "max_file_bytes", AuditConfig.DEFAULT_MAX_FILE_BYTES, 1_024, 1L << 40),
        num(o, a, "audit", "flush_ms", AuditConfig.DEFAULT_FLUSH_MS, 1, 60_000),
        (int) num(o, a, "audit", "buffer", AuditConfig.DEFAULT_BUFFER, 1, 10_000_000),
        policy, pgUrl, a.string("postgres_table", "sluice_audit"));
  }

  private static List<PrincipalConfig> principals(List<ConfigNode> nodes, List<ConnectionConfig> connections,
      String serverToken) {
    List<PrincipalConfig> out = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    Map<String, String> hashes = new HashMap<>();
    if (serverToken != null) {
      hashes.put(Tokens.sha256Hex(serverToken), "server.token");
    }
    Set<String> ids = new LinkedHashSet<>();
    connections.forEach(c -> ids.add(c.id()));
    for (ConfigNode p : nodes) {
      p.onlyKeys(PRINCIPAL);
      String name = p.requiredString("name");
      if (!name.matches("[A-Za-z0-9_-]{1,64}")) {
        throw new ConfigException(p.key("name"), "must be 1-64 letters, digits, '_' or '-', got \"" + name + "\"");
      }
      if (name.equals(PrincipalConfig.DEFAULT)) {
        throw new ConfigException(p.key("name"), "\"default\" is reserved for the gateway's single user; "
            + "pick another name");
      }
      String before = names.putIfAbsent(name, p.key("name"));
      if (before != null) {
        throw new ConfigException(p.key("name"), "duplicate principal \"" + name + "\" (also at " + before + ")");
      }
      List<String> tokens = p.strings("tokens");
      if (tokens.isEmpty()) {
        throw new ConfigException(p.key("tokens"), "needs at least one token (generate one with "
            + "`java -jar sluice.jar token new " + name + "`)");
      }
      List<String> digests = new ArrayList<>();
      for (int i = 0; i < tokens.size(); i++) {
        String key = p.key("tokens") + "[" + i + "]";
        String digest = Tokens.digestOf(key, tokens.get(i));
        String clash = hashes.putIfAbsent(digest, key);
        if (clash != null) {
          throw new ConfigException(key, "the same token is also configured at " + clash
              + "; every token must identify one principal");
        }
        digests.add(digest);
      }
      List<String> allowed = p.strings("connections");
      for (int i = 0; i < allowed.size(); i++) {
        if (!ids.contains(allowed.get(i))) {
          throw new ConfigException(p.key("connections") + "[" + i + "]", "no connection \"" + allowed.get(i)
              + "\"; configured: " + ids);
        }
      }
      List<String> writes = p.strings("writes");
      for (int i = 0; i < writes.size(); i++) {
        if (!ids.contains(writes.get(i)) || !allowed.isEmpty() && !allowed.contains(writes.get(i))) {
          throw new ConfigException(p.key("writes") + "[" + i + "]", "\"" + writes.get(i) + "\" is not one of this "
              + "principal's connections " + (allowed.isEmpty() ? ids : allowed));
        }
      }
      out.add(new PrincipalConfig(name, digests, allowed, p.has("limits") ? limits(p.section("limits")) : null,
          tableRules(p.section("tables"), ids), writes, p.bool("operator", false)));
    }
    return out;
  }

  private static Map<String, TableRules> tableRules(ConfigNode tables, Set<String> connectionIds) {
    Map<String, TableRules> out = new java.util.LinkedHashMap<>();
    for (String id : tables.fieldNames()) {
      if (!connectionIds.contains(id)) {
        throw new ConfigException(tables.key(id), "no connection \"" + id + "\"; configured: " + connectionIds);
      }
      ConfigNode r = tables.section(id);
      r.onlyKeys(TABLE_RULES);
      List<String> denyColumns = r.strings("deny_columns");
      for (int i = 0; i < denyColumns.size(); i++) {
        if (!denyColumns.get(i).contains(".")) {
          throw new ConfigException(r.key("deny_columns") + "[" + i + "]", "name the table too: table.column "
              + "(the table part may be a glob, e.g. *.email), got \"" + denyColumns.get(i) + "\"");
        }
      }
      out.put(id, new TableRules(r.strings("allow"), r.strings("deny"), denyColumns));
    }
    return out;
  }

  private static LimitsConfig limits(ConfigNode l) {
    l.onlyKeys(LIMITS);
    return new LimitsConfig((int) l.number("queries_per_minute", 0, 0, 1_000_000),
        l.number("rows_per_hour", 0, 0, Long.MAX_VALUE / 2), (int) l.number("concurrent_queries", 0, 0, 100_000));
  }

  private static String auditPostgres(ConfigNode a, Map<String, String> o, Path baseDir) {
    String url = override(o, "audit", "postgres_url", a.string("postgres_url", null));
    if (url == null || url.isBlank()) {
      return null;
    }
    url = checkUrl(a.key("postgres_url"), url, Driver.POSTGRES, baseDir);
    String table = a.string("postgres_table", "sluice_audit");
    if (!table.matches("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?")) {
      throw new ConfigException(a.key("postgres_table"), "must be a plain [schema.]table name, got \"" + table + "\"");
    }
    return url;
  }

  /** ingest.keep_runs_ms: 0 (forever) or at least a second, so a sweep never races the run's own client. */
  private static long keepRuns(long ms, ConfigNode ingest) {
    if (ms > 0 && ms < 1_000) {
      throw new ConfigException(ingest.key("keep_runs_ms"), "must be 0 (keep runs forever) or at least 1000, got " + ms);
    }
    return ms;
  }

  /** ingest.model: off unless a url is given. */
  private static IngestConfig.Model model(ConfigNode m) {
    m.onlyKeys(INGEST_MODEL);
    String url = m.string("url", null);
    if (url == null || url.isBlank()) {
      if (m.has("api_key") || m.has("model")) {
        throw new ConfigException(m.key("url"), "is required when ingest.model is configured");
      }
      return null;
    }
    if (!url.startsWith("http://") && !url.startsWith("https://")) {
      throw new ConfigException(m.key("url"), "must be an http:// or https:// URL, got \"" + url + "\"");
    }
    String key = m.string("api_key", null);
    return new IngestConfig.Model(url.replaceAll("/+$", ""), key == null || key.isEmpty() ? null : key,
        m.requiredString("model"), m.number("timeout_ms", IngestConfig.DEFAULT_MODEL_TIMEOUT_MS, 1, 600_000));
  }

  private static List<String> schemas(ConfigNode c, Driver driver) {
    List<String> schemas = c.strings("schemas");
    if (!schemas.isEmpty() && driver == Driver.SQLITE) {
      throw new ConfigException(c.key("schemas"), "a sqlite connection scans its own file; schemas applies to "
          + "postgres and mysql");
    }
    for (int i = 0; i < schemas.size(); i++) {
      if (schemas.get(i).isBlank()) {
        throw new ConfigException(c.key("schemas") + "[" + i + "]", "must be a schema or database name, got \"\"");
      }
    }
    return schemas;
  }

  /**
   * Checks a database URL (scheme, host, database, TLS parameters and their files) and returns it
   * with relative certificate paths resolved against {@code baseDir}.
   */
  static String checkUrl(String key, String url, Driver driver, Path baseDir) {
    if (url.length() > ConnectionTls.MAX_URL_CHARS) {
      throw new ConfigException(key, "is longer than " + ConnectionTls.MAX_URL_CHARS + " characters");
    }
    URI u;
    try {
      u = new URI(url);
    } catch (java.net.URISyntaxException e) {
      throw new ConfigException(key, "is not a valid URL: \"" + masked(url) + "\"");
    }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    Set<String> allowed = driver == Driver.POSTGRES ? Set.of("postgresql", "postgres") : Set.of("mysql", "mariadb");
    if (!allowed.contains(scheme)) {
      throw new ConfigException(key, "a " + driver.wireName() + " connection needs a "
          + (driver == Driver.POSTGRES ? "postgresql://" : "mysql://") + " URL, got \"" + masked(url) + "\"");
    }
    if (u.getHost() == null || u.getHost().isEmpty()) {
      throw new ConfigException(key, "names no host: \"" + masked(url) + "\"");
    }
    String db = u.getPath() == null ? "" : u.getPath().replaceFirst("^/", "");
    if (db.isEmpty()) {
      throw new ConfigException(key, "names no database (scheme://user@host:port/DATABASE): \"" + masked(url) + "\"");
    }
    try {
      String resolved = ConnectionTls.resolveFiles(url, driver, baseDir);
      ConnectionTls.fromUrl(resolved, driver).checkFilesReadable(resolved);
      return resolved;
    } catch (UrlParameterException e) {
      throw new ConfigException(key, e.getMessage());
    }
  }

  /** The URL with any password replaced, for messages. */
  static String masked(String url) {
    return url.replaceAll("(://[^:/@]*):[^@/]*@", "$1:***@");
  }

  private static boolean isOrigin(String s) {
    try {
      URI u = new URI(s);
      return u.getScheme() != null && u.getHost() != null && (u.getRawPath() == null || u.getRawPath().isEmpty())
          && u.getQuery() == null && u.getUserInfo() == null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  private static Path resolve(Path base, String p) {
    Path path = Path.of(p);
    return (path.isAbsolute() ? path : base.resolve(path)).normalize();
  }

  /** {@code SLUICE_SERVER_PORT=8080} → {@code server.port}: the server and state sections only. */
  private static Map<String, String> overrides(Map<String, String> env) {
    Map<String, String> o = new HashMap<>();
    env.forEach((k, v) -> {
      for (String section : List.of("server", "state", "catalog", "ingest", "audit")) {
        String prefix = "SLUICE_" + section.toUpperCase(Locale.ROOT) + "_";
        if (k.startsWith(prefix)) {
          String key = k.substring(prefix.length()).toLowerCase(Locale.ROOT);
          Set<String> known = switch (section) {
            case "server" -> SERVER;
            case "state" -> STATE;
            case "catalog" -> CATALOG;
            case "audit" -> AUDIT;
            default -> INGEST;
          };
          if (!known.contains(key)) {
            throw new ConfigException(k, "environment override names no " + section + " key (known: "
                + String.join(", ", known) + ")");
          }
          if (key.equals("model")) {
            throw new ConfigException(k, "ingest.model is a section; set its keys in the file, with ${ENV} "
                + "references for secrets (api_key: ${MODEL_KEY})");
          }
          o.put(section + "." + key, v);
        }
      }
    });
    return o;
  }

  private static String override(Map<String, String> o, String section, String key, String fromFile) {
    return o.getOrDefault(section + "." + key, fromFile);
  }

  private static long num(Map<String, String> o, ConfigNode s, String section, String key, long def, long min,
      long max) {
    String env = o.get(section + "." + key);
    if (env != null) {
      String name = "SLUICE_" + section.toUpperCase(Locale.ROOT) + "_" + key.toUpperCase(Locale.ROOT);
      return ConfigNode.checkRange(name, ConfigNode.parseInteger(name, env), min, max);
    }
    return s.number(key, def, min, max);
  }
}
