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
    if (wildcard(host)) {
      // a wildcard bind is reached on loopback from this machine
      host = "127.0.0.1";
    }
    String shown = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    boolean token = cfg.server().token() != null || !cfg.principals().isEmpty();
    return new GatewayAddress("http://" + shown.toLowerCase(Locale.ROOT) + ":" + cfg.server().port() + "/mcp", token);
  }

  /** The unspecified address in any spelling (IPv4, IPv6, bracketed); a name is never parsed or resolved. */
  private static boolean wildcard(String host) {
    byte[] ip = io.netty.util.NetUtil.createByteArrayFromIpAddressString(
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host);
    if (ip == null) {
      return false;
    }
    for (byte b : ip) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  public GatewayAddress withUrl(String other) {
    return new GatewayAddress(other, token);
  }

  public GatewayAddress withToken(boolean t) {
    return new GatewayAddress(url, token || t);
  }
}
