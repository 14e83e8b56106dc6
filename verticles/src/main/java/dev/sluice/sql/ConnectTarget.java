package dev.sluice.sql;

import dev.sluice.config.ConnectionConfig;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a network connection points, parsed from {@code scheme://user:pass@host:port/db} with the
 * config's user/password overrides applied.
 */
public record ConnectTarget(String host, int port, String database, String user, String password) {

  public static ConnectTarget of(ConnectionConfig cfg, int defaultPort) {
    URI uri;
    try {
      uri = URI.create(cfg.url());
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "connection '" + cfg.id() + "' has an unparseable url");
    }
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      user = decode(parts[0]);
      password = parts.length > 1 ? decode(parts[1]) : null;
    }
    if (cfg.user() != null) {
      user = cfg.user();
    }
    if (cfg.password() != null) {
      password = cfg.password();
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String db = path.startsWith("/") ? path.substring(1) : path;
    return new ConnectTarget(uri.getHost() == null ? "127.0.0.1" : uri.getHost(),
        uri.getPort() < 0 ? defaultPort : uri.getPort(), db.isEmpty() ? null : decode(db), user, password);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
