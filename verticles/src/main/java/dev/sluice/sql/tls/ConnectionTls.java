package dev.sluice.sql.tls;

import dev.sluice.sql.Driver;
import dev.sluice.sql.NameSuggester;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TLS settings of a connection URL, read from its query parameters the way libpq reads them:
 * {@code sslmode}, {@code sslrootcert}, {@code sslcert}, {@code sslkey}. A MySQL URL also takes the
 * mysql client's names ({@code ssl-mode}, {@code ssl-ca}, {@code ssl-cert}, {@code ssl-key}). Any
 * other parameter is refused, so a misspelt {@code sslmod=verify-full} cannot silently connect
 * without verification.
 *
 * @param mode how TLS is used; {@link #DEFAULT_MODE} when the URL names none
 * @param rootCert PEM file of the CA(s) the server certificate must chain to, or null
 * @param cert PEM client certificate, or null
 * @param key PEM (PKCS#8 or PKCS#1) key of {@code cert}, or null
 */
public record ConnectionTls(TlsMode mode, String rootCert, String cert, String key) {

  /** What libpq and the mysql client do without a mode: TLS when offered, unverified. */
  public static final TlsMode DEFAULT_MODE = TlsMode.PREFER;
  /** Longer URLs are refused: no real connection string comes near it. */
  public static final int MAX_URL_CHARS = 4_096;
  static final int MAX_PARAMETERS = 16;

  private static final List<String> LIBPQ = List.of("sslmode", "sslrootcert", "sslcert", "sslkey");
  /** mysql client option names → the libpq name they mean. */
  private static final Map<String, String> MYSQL_ALIASES = Map.of("ssl-mode", "sslmode", "ssl-ca", "sslrootcert",
      "ssl-cert", "sslcert", "ssl-key", "sslkey");

  /** Reads and checks the URL's parameters; throws {@link UrlParameterException} naming the bad one. */
  public static ConnectionTls fromUrl(String url, Driver driver) {
    Map<String, String> p = parameters(url, driver);
    String modeText = p.get("sslmode");
    TlsMode mode = DEFAULT_MODE;
    if (modeText != null) {
      mode = TlsMode.parse(modeText);
      if (mode == null || mode == TlsMode.ALLOW && driver == Driver.MYSQL) {
        throw new UrlParameterException(written(url, "sslmode"), written(url, "sslmode") + " must be one of "
            + (driver == Driver.MYSQL ? "disable, prefer, require, verify-ca, verify-full (or DISABLED, PREFERRED, "
                + "REQUIRED, VERIFY_CA, VERIFY_IDENTITY)" : "disable, allow, prefer, require, verify-ca, verify-full")
            + ", got \"" + modeText + "\"");
      }
    }
    ConnectionTls tls = new ConnectionTls(mode, p.get("sslrootcert"), p.get("sslcert"), p.get("sslkey"));
    tls.checkCombination(url);
    return tls;
  }

  /** True when the server's certificate chain is checked against {@link #rootCert}. */
  public boolean verifiesChain() {
    return mode == TlsMode.VERIFY_CA || mode == TlsMode.VERIFY_FULL || mode == TlsMode.REQUIRE && rootCert != null;
  }

  public boolean verifiesHost() {
    return mode == TlsMode.VERIFY_FULL;
  }

  /**
   * The client side of the handshake. Without chain verification every certificate is accepted
   * (libpq's prefer/require); verify-full adds the RFC 2818 host-name check. A refused certificate
   * is remembered under {@code url} for {@link TlsFailures}.
   */
  public ClientSSLOptions sslOptions(String url) {
    ClientSSLOptions o = new ClientSSLOptions().setHostnameVerificationAlgorithm(verifiesHost() ? "HTTPS" : "");
    if (verifiesChain()) {
      o.setTrustOptions(new RecordingTrustOptions(new PemTrustOptions().addCertPath(rootCert), url));
    } else {
      o.setTrustAll(true);
    }
    if (cert != null) {
      o.setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert).setKeyPath(key));
    }
    return o;
  }

  /**
   * Fails with the first certificate file that cannot be read. Called on the start-up thread (the
   * config loader), never on an event loop.
   */
  public void checkFilesReadable(String url) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("sslrootcert", rootCert);
    files.put("sslcert", cert);
    files.put("sslkey", key);
    files.forEach((name, file) -> {
      if (file != null && !Files.isReadable(Path.of(file))) {
        throw new UrlParameterException(written(url, name), written(url, name) + ": cannot read " + file
            + (Files.exists(Path.of(file)) ? " (permission denied)" : " (no such file)"));
      }
    });
  }

  /**
   * The URL with relative certificate paths made absolute against {@code baseDir} (the config file's
   * directory), so the executors, which never see that directory, open the same files.
   */
  public static String resolveFiles(String url, Driver driver, Path baseDir) {
    parameters(url, driver);
    URI u = URI.create(url);
    if (u.getRawQuery() == null) {
      return url;
    }
    List<String> out = new ArrayList<>();
    for (String pair : u.getRawQuery().split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String canonical = MYSQL_ALIASES.getOrDefault(name, name);
      if (eq > 0 && !canonical.equals("sslmode")) {
        Path file = Path.of(decode(pair.substring(eq + 1)));
        if (!file.isAbsolute()) {
          pair = name + "=" + URLEncoder.encode(baseDir.resolve(file).normalize().toString(), StandardCharsets.UTF_8)
              .replace("+", "%20");
        }
      }
      out.add(pair);
    }
    int q = url.indexOf('?');
    int hash = url.indexOf('#', q);
    return url.substring(0, q + 1) + String.join("&", out) + (hash < 0 ? "" : url.substring(hash));
  }

  private void checkCombination(String url) {
    if (mode == TlsMode.DISABLE) {
      for (String[] f : new String[][] {{"sslrootcert", rootCert}, {"sslcert", cert}, {"sslkey", key}}) {
        if (f[1] != null) {
          throw new UrlParameterException(written(url, f[0]), written(url, f[0]) + " has no effect with "
              + written(url, "sslmode") + "=disable; remove one of them");
        }
      }
    }
    if ((mode == TlsMode.VERIFY_CA || mode == TlsMode.VERIFY_FULL) && rootCert == null) {
      throw new UrlParameterException(written(url, "sslmode"), written(url, "sslmode") + "=" + mode.libpqName()
          + " needs " + written(url, "sslrootcert") + "=/path/to/ca.pem, the CA that signed the server's certificate");
    }
    if ((cert == null) != (key == null)) {
      String missing = cert == null ? "sslcert" : "sslkey";
      throw new UrlParameterException(written(url, missing), "a client certificate needs both "
          + written(url, "sslcert") + " and " + written(url, "sslkey") + "; " + written(url, missing) + " is missing");
    }
  }

  /** Canonical (libpq) name → decoded value; refuses unknown, repeated or valueless parameters. */
  private static Map<String, String> parameters(String url, Driver driver) {
    if (url.length() > MAX_URL_CHARS) {
      throw new UrlParameterException("url", "is longer than " + MAX_URL_CHARS + " characters");
    }
    String query;
    try {
      query = new URI(url).getRawQuery();
    } catch (URISyntaxException e) {
      throw new UrlParameterException("url", "is not a valid URL");
    }
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    String[] pairs = query.split("&");
    if (pairs.length > MAX_PARAMETERS) {
      throw new UrlParameterException("url", "has more than " + MAX_PARAMETERS + " parameters");
    }
    List<String> known = new ArrayList<>(LIBPQ);
    if (driver == Driver.MYSQL) {
      known.addAll(MYSQL_ALIASES.keySet().stream().sorted().toList());
    }
    for (String pair : pairs) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      if (!known.contains(name)) {
        List<String> near = NameSuggester.similar(name, known);
        throw new UrlParameterException(name, "unknown URL parameter \"" + name + "\""
            + (near.isEmpty() ? "" : "; did you mean " + near.get(0) + "?") + " (known for " + driver.wireName()
            + ": " + String.join(", ", known) + ")");
      }
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (value.isBlank()) {
        throw new UrlParameterException(name, "URL parameter " + name + " has no value");
      }
      String canonical = MYSQL_ALIASES.getOrDefault(name, name);
      if (out.put(canonical, value) != null) {
        throw new UrlParameterException(name, "URL parameter " + name + " is given twice"
            + (canonical.equals(name) ? "" : " (" + name + " and " + canonical + " mean the same)"));
      }
    }
    return out;
  }

  /**
   * The name the user wrote for a canonical parameter (ssl-ca for sslrootcert ...), for messages;
   * for one not written, the name in the vocabulary the URL uses.
   */
  private static String written(String url, String canonical) {
    boolean mysqlNames = false;
    for (Map.Entry<String, String> a : MYSQL_ALIASES.entrySet()) {
      if (url.contains(a.getKey() + "=")) {
        if (a.getValue().equals(canonical)) {
          return a.getKey();
        }
        mysqlNames = true;
      }
    }
    if (mysqlNames && !url.contains(canonical + "=")) {
      return MYSQL_ALIASES.entrySet().stream().filter(a -> a.getValue().equals(canonical)).findFirst()
          .map(Map.Entry::getKey).orElse(canonical);
    }
    return canonical;
  }

  /** Percent-decoding as RFC 3986 has it: a '+' stays a '+' (file names may contain one). */
  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
