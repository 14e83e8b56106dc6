package dev.sluice.sql.tls;

import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.TrustOptions;
import java.net.Socket;
import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The PEM trust of sslrootcert, with every refusal of a server certificate remembered per URL.
 * The PostgreSQL client reports a failed handshake only as "SSL handshake failed" (its
 * channel-closed signal wins the race against the handshake's own exception), so the reason, a
 * wrong CA or a host name the certificate does not list, is read back from here by
 * {@link TlsFailures}. Vert.x loads the PEM file through {@link #getTrustManagerFactory} on a
 * worker thread, never on an event loop.
 */
final class RecordingTrustOptions implements TrustOptions {

  /** Last refusal per connection URL; one entry per configured URL at most. */
  private static final Map<String, String> LAST_REFUSAL = new ConcurrentHashMap<>();

  private final PemTrustOptions pem;
  private final String url;

  RecordingTrustOptions(PemTrustOptions pem, String url) {
    this.pem = pem;
    this.url = url;
  }

  /** Why the server certificate was last refused on {@code url}, or null. */
  static String lastRefusal(String url) {
    return url == null ? null : LAST_REFUSAL.get(url);
  }

  @Override
  public TrustOptions copy() {
    return new RecordingTrustOptions(new PemTrustOptions(pem), url);
  }

  @Override
  public TrustManagerFactory getTrustManagerFactory(Vertx vertx) throws Exception {
    TrustManager[] wrapped = wrap(pem.getTrustManagerFactory(vertx).getTrustManagers());
    return new TrustManagerFactory(new TrustManagerFactorySpi() {
      @Override
      protected void engineInit(KeyStore ks) {
      }

      @Override
      protected void engineInit(ManagerFactoryParameters spec) {
      }

      @Override
      protected TrustManager[] engineGetTrustManagers() {
        return wrapped.clone();
      }
    }, new Provider("sluice-recording-trust", "1", "records refused certificates") { }, "PKIX") { };
  }

  @Override
  public Function<String, TrustManager[]> trustManagerMapper(Vertx vertx) throws Exception {
    Function<String, TrustManager[]> m = pem.trustManagerMapper(vertx);
    return m == null ? null : name -> {
      TrustManager[] tms = m.apply(name);
      return tms == null ? null : wrap(tms);
    };
  }

  private TrustManager[] wrap(TrustManager[] tms) {
    TrustManager[] out = tms.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof X509ExtendedTrustManager x) {
        out[i] = new Recording(x);
      }
    }
    return out;
  }

  /** Delegates every check; a refusal is stored before it is rethrown. */
  private final class Recording extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager d;

    Recording(X509ExtendedTrustManager d) {
      this.d = d;
    }

    private void recorded(CertificateCheck check) throws CertificateException {
      try {
        check.run();
        LAST_REFUSAL.remove(url);
      } catch (CertificateException e) {
        LAST_REFUSAL.put(url, String.valueOf(e.getMessage()));
        throw e;
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      recorded(() -> d.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      recorded(() -> d.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      recorded(() -> d.checkServerTrusted(chain, authType));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      d.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      d.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      d.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return d.getAcceptedIssuers();
    }
  }

  @FunctionalInterface
  private interface CertificateCheck {
    void run() throws CertificateException;
  }
}
