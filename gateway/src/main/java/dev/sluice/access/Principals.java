package dev.sluice.access;

import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.Tokens;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonArray;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is calling. A bearer token's SHA-256 selects a configured principal; {@code server.token}
 * selects the {@code default} principal; with neither configured every request is {@code
 * default} (the single local user on loopback). Lookups compare digests, so a token's length or
 * prefix never shows in timing, and tokens themselves are never kept.
 */
public final class Principals {

  /** The outcome of reading an Authorization header. */
  public record Authentication(String principal, int status, String reason) {
    public boolean ok() {
      return principal != null;
    }
  }

  private final Map<String, String> byDigest = new HashMap<>();
  private final Map<String, PrincipalConfig> byName = new HashMap<>();
  private final List<String> allConnections = new ArrayList<>();
  private final boolean open;
  /** No token anywhere and bound to loopback: the single local user runs the console too. */
  private final boolean openOperator;

  public Principals(SluiceConfig config) {
    config.connections().forEach(c -> allConnections.add(c.id()));
    String serverToken = config.server().token();
    if (serverToken != null && !serverToken.isEmpty()) {
      byDigest.put(Tokens.sha256Hex(serverToken), PrincipalConfig.DEFAULT);
    }
    for (PrincipalConfig p : config.principals()) {
      byName.put(p.name(), p);
      p.tokenSha256().forEach(d -> byDigest.put(d, p.name()));
    }
    this.open = byDigest.isEmpty();
    this.openOperator = open && loopback(config.server().host());
  }

  private static boolean loopback(String host) {
    String h = host.trim().toLowerCase(java.util.Locale.ROOT);
    return h.equals("localhost") || h.equals("::1") || h.equals("[::1]") || h.startsWith("127.");
  }

  /**
   * Whether the principal may use the operator's console and its admin API: a principal configured
   * with {@code operator: true}, or the default principal of a loopback gateway without tokens.
   * The holder of {@code server.token} is not an operator: a shared token is an agent's token.
   */
  public boolean isOperator(String principal) {
    PrincipalConfig p = byName.get(principal);
    return p != null ? p.operator() : openOperator && PrincipalConfig.DEFAULT.equals(principal);
  }

  /** No token anywhere: every caller is the default principal. */
  public boolean open() {
    return open;
  }

  public Authentication authenticate(String authorization) {
    if (open) {
      return new Authentication(PrincipalConfig.DEFAULT, 200, null);
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return new Authentication(null, 401, "Unauthorized: missing bearer token");
    }
    String digest = Tokens.sha256Hex(authorization.substring(7).trim());
    for (Map.Entry<String, String> e : byDigest.entrySet()) {
      // every entry is compared, in constant time each: no early exit tells a near miss
      if (MessageDigest.isEqual(e.getKey().getBytes(), digest.getBytes())) {
        return new Authentication(e.getValue(), 200, null);
      }
    }
    return new Authentication(null, 401, "Unauthorized: invalid bearer token");
  }

  public boolean mayUse(String principal, String connectionId) {
    PrincipalConfig p = byName.get(principal);
    return p == null ? PrincipalConfig.DEFAULT.equals(principal) || principal == null : p.mayUse(connectionId);
  }

  /** Whether the principal may use sql_write on the connection (never the default principal). */
  public boolean mayWrite(String principal, String connectionId) {
    PrincipalConfig p = byName.get(principal);
    return p != null && p.mayWrite(connectionId);
  }

  /** Whether any principal may write anywhere: sql_write is only offered then. */
  public boolean anyWrites() {
    return byName.values().stream().anyMatch(p -> !p.writes().isEmpty());
  }

  /** The connection ids this principal may use, in config order. */
  public List<String> connectionsOf(String principal) {
    return allConnections.stream().filter(id -> mayUse(principal, id)).toList();
  }

  /** Fails with permission_denied when the principal may not use the connection. */
  public void requireConnection(String principal, String connectionId) {
    if (!mayUse(principal, connectionId)) {
      throw new SqlError(ErrorType.PERMISSION_DENIED, "principal '" + principal + "' may not use connection '"
          + connectionId + "'; its connections: " + connectionsOf(principal))
          .with("availableConnections", new JsonArray(connectionsOf(principal)));
    }
  }
}
