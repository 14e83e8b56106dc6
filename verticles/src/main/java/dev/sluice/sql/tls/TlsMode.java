package dev.sluice.sql.tls;

import java.util.Locale;

/**
 * How a connection uses TLS, in libpq's terms ({@code sslmode}); MySQL's {@code ssl-mode} names
 * map onto the same ladder (PREFERRED = prefer, REQUIRED = require, VERIFY_IDENTITY = verify-full).
 */
public enum TlsMode {
  /** Plain TCP only. */
  DISABLE("disable"),
  /** Plain first, TLS if the server insists (PostgreSQL only). */
  ALLOW("allow"),
  /** TLS when the server offers it, plain otherwise; the certificate is not checked. libpq's default. */
  PREFER("prefer"),
  /** TLS or no connection; the certificate is checked only when sslrootcert is given (libpq's rule). */
  REQUIRE("require"),
  /** TLS, and the server's certificate must chain to sslrootcert. */
  VERIFY_CA("verify-ca"),
  /** verify-ca, and the certificate must name the host the URL connects to. */
  VERIFY_FULL("verify-full");

  private final String libpqName;

  TlsMode(String libpqName) {
    this.libpqName = libpqName;
  }

  public String libpqName() {
    return libpqName;
  }

  /**
   * Reads a value of {@code sslmode} or MySQL's {@code ssl-mode}, case-insensitively; null when it
   * is neither.
   */
  static TlsMode parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    return switch (v) {
      case "disable", "disabled" -> DISABLE;
      case "allow" -> ALLOW;
      case "prefer", "preferred" -> PREFER;
      case "require", "required" -> REQUIRE;
      case "verify-ca" -> VERIFY_CA;
      case "verify-full", "verify-identity" -> VERIFY_FULL;
      default -> null;
    };
  }
}
