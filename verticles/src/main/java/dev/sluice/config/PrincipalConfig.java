package dev.sluice.config;

import java.util.List;

/**
 * Who may call: a named principal, the SHA-256 (hex) of each bearer token it may present, and the
 * connections it may use. A request's token selects its principal for the whole session.
 *
 * @param tokenSha256 lower-case hex SHA-256 of each token; plaintext tokens never outlive loading
 * @param connections connection ids it may use; empty means every connection
 * @param limits its rate limits; null means the top-level {@code limits}
 * @param tables its table and column policy per connection id; a connection without an entry is
 *     governed by the database role alone
 * @param writes connection ids where it may use sql_write (off everywhere by default)
 * @param operator whether it may open the operator's console (/console) and its admin API
 */
public record PrincipalConfig(String name, List<String> tokenSha256, List<String> connections, LimitsConfig limits,
    java.util.Map<String, TableRules> tables, List<String> writes, boolean operator) {

  public PrincipalConfig(String name, List<String> tokenSha256, List<String> connections, LimitsConfig limits,
      java.util.Map<String, TableRules> tables, List<String> writes) {
    this(name, tokenSha256, connections, limits, tables, writes, false);
  }

  public PrincipalConfig(String name, List<String> tokenSha256, List<String> connections, LimitsConfig limits,
      java.util.Map<String, TableRules> tables) {
    this(name, tokenSha256, connections, limits, tables, List.of());
  }

  public PrincipalConfig(String name, List<String> tokenSha256, List<String> connections) {
    this(name, tokenSha256, connections, null, java.util.Map.of(), List.of());
  }

  public PrincipalConfig(String name, List<String> tokenSha256, List<String> connections, LimitsConfig limits) {
    this(name, tokenSha256, connections, limits, java.util.Map.of(), List.of());
  }

  /** The principal of a gateway without principals: the single local user (or server.token's holder). */
  public static final String DEFAULT = "default";

  public PrincipalConfig {
    writes = writes == null ? List.of() : List.copyOf(writes);
    tables = tables == null ? java.util.Map.of() : java.util.Map.copyOf(tables);
    tokenSha256 = List.copyOf(tokenSha256);
    connections = List.copyOf(connections);
  }

  public boolean mayWrite(String connectionId) {
    return writes.contains(connectionId) && mayUse(connectionId);
  }

  public boolean mayUse(String connectionId) {
    return connections.isEmpty() || connections.contains(connectionId);
  }

  @Override
  public String toString() {
    return "PrincipalConfig[name=" + name + ", tokens=" + tokenSha256.size() + " (hashes hidden), connections="
        + connections + ", limits=" + limits + ", tables=" + tables + ", writes=" + writes
        + ", operator=" + operator + "]";
  }
}
