package dev.sluice.setup;

import dev.sluice.config.SluiceConfig;
import java.util.Locale;

/**
 * Where clients reach the gateway and whether they need a token, read from the same
 * configuration the gateway starts with (host, port, {@code server.token}, principals).
 *
 * @param url the MCP endpoint
 * @param token true when requests need {@code Authorization: Bearer ...}
 */
public record GatewayAddress(String url, boolean token) {

  public static GatewayAddress of(SluiceConfig cfg) {
    String host = cfg.server().host();
    // a wildcard bind is reached on loopback from this machine
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      host = "127.0.0.1";
    }
    String shown = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    boolean token = cfg.server().token() != null || !cfg.principals().isEmpty();
    return new GatewayAddress("http://" + shown.toLowerCase(Locale.ROOT) + ":" + cfg.server().port() + "/mcp", token);
  }

  public GatewayAddress withUrl(String other) {
    return new GatewayAddress(other, token);
  }

  public GatewayAddress withToken(boolean t) {
    return new GatewayAddress(url, token || t);
  }
}
