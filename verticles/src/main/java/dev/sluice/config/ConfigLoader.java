package dev.sluice.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sql.Driver;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
  private static final Set<String> ROOT = Set.of("server", "state", "connections");
  private static final Set<String> SERVER = new LinkedHashSet<>(List.of("host", "port", "token", "allowed_hosts",
      "allowed_origins", "max_body_bytes", "session_idle_timeout_ms", "sse_replay_events", "slow_call_ms",
      "max_sessions"));
  private static final Set<String> STATE = Set.of("dir");
  private static final Set<String> CONNECTION = new LinkedHashSet<>(List.of("id", "driver", "url", "path", "user",
      "password", "description", "pool_size", "max_wait_queue", "query_timeout_ms", "max_rows",
      "max_rows_ceiling"));

  private ConfigLoader() {}

  /**
   * @param fileOrNull the YAML file, or null for the defaults (the embedded demo)
   * @param env environment variables, for {@code ${NAME}} references and {@code SLUICE_*} overrides
   */
  public static SluiceConfig load(Path fileOrNull, Map<String, String> env) {
    if (fileOrNull == null) {
      return fromYaml("", env, Path.of("").toAbsolutePath());
    }
    String text;
    try {
      text = Files.readString(fileOrNull, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException("--config", "cannot read " + fileOrNull + " ("
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getClass().getSimpleName()) + ")");
    }
    Path base = fileOrNull.toAbsolutePath().getParent();
    return fromYaml(text, env, base);
  }

  /** Parses YAML text; relative paths resolve against {@code baseDir}. */
  public static SluiceConfig fromYaml(String yamlText, Map<String, String> env, Path baseDir) {
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
    Map<String, String> overrides = overrides(env);

    Path stateDir = resolve(baseDir, override(overrides, "state", "dir", state.string("dir", "data")));
    ServerConfig serverConfig = server(server, overrides);
    List<ConnectionConfig> connections = connections(top.list("connections"), baseDir);
    boolean demo = connections.isEmpty();
    if (demo) {
      connections = List.of(new ConnectionConfig(DEMO_ID, Driver.SQLITE, null,
          stateDir.resolve("demo.sqlite").toString(), null, null,
          "Embedded demo shop dataset (generated on first start)", ConnectionConfig.DEFAULT_POOL_SIZE,
          ConnectionConfig.DEFAULT_MAX_WAIT_QUEUE, ConnectionConfig.DEFAULT_QUERY_TIMEOUT_MS,
          ConnectionConfig.DEFAULT_MAX_ROWS, ConnectionConfig.DEFAULT_MAX_ROWS_CEILING));
    }
    return new SluiceConfig(serverConfig, stateDir, connections, demo);
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
        (int) num(o, s, "server", "max_sessions", ServerConfig.DEFAULT_MAX_SESSIONS, 1, 1_000_000));
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
        url = c.requiredString("url");
        checkUrl(c.key("url"), url, driver);
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
          timeout, maxRows, ceiling));
    }
    return out;
  }

  private static void checkUrl(String key, String url, Driver driver) {
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
      for (String section : List.of("server", "state")) {
        String prefix = "SLUICE_" + section.toUpperCase(Locale.ROOT) + "_";
        if (k.startsWith(prefix)) {
          String key = k.substring(prefix.length()).toLowerCase(Locale.ROOT);
          Set<String> known = section.equals("server") ? SERVER : STATE;
          if (!known.contains(key)) {
            throw new ConfigException(k, "environment override names no " + section + " key (known: "
                + String.join(", ", known) + ")");
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
