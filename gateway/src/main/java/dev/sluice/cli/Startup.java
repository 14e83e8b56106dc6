package dev.sluice.cli;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.Gateway;
import io.vertx.core.Future;
import java.nio.file.Path;

/** Shared by every command that starts a gateway: load, apply overrides, refuse unsafe binds. */
final class Startup {

  private Startup() {}

  static SluiceConfig load(Path file, Integer port, String host) {
    return load(file, port, host, java.util.List.of());
  }

  /** @param connections {@code --connection ID=URL} specs, added to the file's connections */
  static SluiceConfig load(Path file, Integer port, String host, java.util.List<String> connections) {
    SluiceConfig cfg = ConfigLoader.load(file, System.getenv(), connections);
    ServerConfig s = cfg.server();
    if (port != null) {
      if (port < 0 || port > 65535) {
        throw new ConfigException("--port", "must be between 0 and 65535, got " + port);
      }
      s = s.withPort(port);
    }
    if (host != null) {
      s = new ServerConfig(host, s.port(), s.token(), s.allowedHosts(), s.allowedOrigins(),
          s.maxBodyBytes(), s.sessionIdleTimeoutMs(), s.sseReplayEvents(), s.slowCallMs(), s.maxSessions(),
          s.drainTimeoutMs(), s.eventLoops(), s.bodyTimeoutMs());
    }
    if (!ConfigLoader.isLoopback(s.host()) && (s.token() == null || s.token().isEmpty())
        && cfg.principals().isEmpty()) {
      throw new ConfigException("server.token", "binding to non-loopback address " + s.host()
          + " requires a token (set server.token or SLUICE_SERVER_TOKEN, or configure principals); refusing to start");
    }
    try {
      // the OTEL_* variables are configuration too: a protocol we cannot speak stops the start here
      dev.sluice.tracing.Tracing.process();
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      int space = m.indexOf(' ');
      throw new ConfigException(m.substring(0, space), m.substring(space + 1));
    }
    return cfg.withServer(s);
  }

  /**
   * The configuration a command runs with, or null after printing the one-line config error
   * (the caller exits with {@link SluiceCommand#EXIT_USAGE}).
   */
  static SluiceConfig loadOrReport(Path file, Integer port, String host) {
    return loadOrReport(file, port, host, java.util.List.of());
  }

  static SluiceConfig loadOrReport(Path file, Integer port, String host, java.util.List<String> connections) {
    try {
      return load(file, port, host, connections);
    } catch (ConfigException e) {
      System.err.println("sluice: config error: " + e.getMessage());
      return null;
    }
  }

  static Future<Gateway> start(SluiceConfig cfg) {
    return Gateway.start(cfg);
  }
}
