package dev.sluice.sql.tls;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.net.URI;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

/**
 * Turns a failed TLS handshake into a connection_error an operator can act on. The JDK's own
 * words ("PKIX path building failed: ... unable to find valid certification path to requested
 * target") say neither which file nor which setting is involved.
 */
public final class TlsFailures {

  private TlsFailures() {}

  /** The connection_error for {@code failure}, or null when it is not a TLS failure. */
  public static SqlError describe(Throwable failure, ConnectionConfig cfg) {
    if (cfg.url() != null && offersNoTls(failure)) {
      return new SqlError(ErrorType.CONNECTION_ERROR, "TLS to the database of '" + cfg.id() + "' failed: the server "
          + "does not offer TLS, and the URL's ssl mode requires it; enable TLS on the server, or use sslmode=prefer");
    }
    Throwable tls = null;
    for (Throwable t = failure; t != null && tls == null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SSLException || t instanceof CertificateException
          || String.valueOf(t.getMessage()).startsWith("SSL handshake failed")) {
        tls = t;
      }
    }
    if (tls == null || cfg.url() == null) {
      return null;
    }
    // the PostgreSQL client loses the handshake's own exception; the trust manager kept the reason
    String refusal = RecordingTrustOptions.lastRefusal(cfg.url());
    String all = messages(failure) + (refusal == null ? "" : refusal);
    String prefix = "TLS to the database of '" + cfg.id() + "' failed: ";
    ConnectionTls settings;
    try {
      settings = ConnectionTls.fromUrl(cfg.url(), cfg.driver());
    } catch (IllegalArgumentException e) {
      settings = null;
    }
    String why;
    if (all.contains("No subject alternative") || all.contains("No name matching")) {
      why = "the server's certificate does not name the host " + URI.create(cfg.url()).getHost()
          + " (sslmode=verify-full checks it); connect by a name the certificate lists, or use sslmode=verify-ca";
    } else if (all.contains("PKIX path") || all.contains("certification path") || all.contains("signature check")) {
      why = "the server's certificate is not signed by the CA in sslrootcert"
          + (settings == null || settings.rootCert() == null ? "" : " (" + settings.rootCert() + ")");
    } else if (all.contains("expired") || all.contains("NotAfter")) {
      why = "the server's certificate has expired";
    } else {
      why = firstLine(tls.getMessage() == null ? tls.getClass().getSimpleName() : tls.getMessage())
          + (settings != null && settings.rootCert() != null ? " (sslrootcert " + settings.rootCert() + ")" : "");
    }
    return new SqlError(ErrorType.CONNECTION_ERROR, prefix + why);
  }

  /**
   * The drivers' words for a server without TLS: PostgreSQL answers the SSLRequest with "no"; a
   * MariaDB without TLS answers the client's TLS hello with a plain error packet, which the TLS
   * layer reports as "not an SSL/TLS record".
   */
  private static boolean offersNoTls(Throwable failure) {
    String all = messages(failure);
    return all.contains("does not handle SSL") || all.contains("not an SSL/TLS record");
  }

  private static String messages(Throwable failure) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
