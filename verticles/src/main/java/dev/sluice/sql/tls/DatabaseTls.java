package dev.sluice.sql.tls;

import dev.sluice.sql.Driver;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.pgclient.PgConnectOptions;

/** Puts a connection URL's TLS settings on the Vert.x PostgreSQL and MySQL connect options. */
public final class DatabaseTls {

  private DatabaseTls() {}

  /** Applies the URL's sslmode / certificates to PostgreSQL options built from the same URL. */
  public static PgConnectOptions postgres(PgConnectOptions o, String url) {
    ConnectionTls tls = ConnectionTls.fromUrl(url, Driver.POSTGRES);
    o.setSslMode(switch (tls.mode()) {
      case DISABLE -> io.vertx.pgclient.SslMode.DISABLE;
      case ALLOW -> io.vertx.pgclient.SslMode.ALLOW;
      case PREFER -> io.vertx.pgclient.SslMode.PREFER;
      case REQUIRE -> io.vertx.pgclient.SslMode.REQUIRE;
      // libpq: require with a root certificate verifies the chain like verify-ca
      case VERIFY_CA -> io.vertx.pgclient.SslMode.VERIFY_CA;
      case VERIFY_FULL -> io.vertx.pgclient.SslMode.VERIFY_FULL;
    });
    if (tls.mode() != TlsMode.DISABLE) {
      o.setSslOptions(tls.sslOptions(url));
    }
    return o;
  }

  /**
   * A PostgreSQL URL outside the connections list (state store, audit sink): host, user and
   * database by the driver's own parser, TLS by ours (the driver would send unknown parameters
   * such as sslrootcert to the server as settings).
   */
  public static PgConnectOptions postgres(String url) {
    int q = url.indexOf('?');
    return postgres(PgConnectOptions.fromUri(q < 0 ? url : url.substring(0, q)), url);
  }

  public static MySQLConnectOptions mysql(MySQLConnectOptions o, String url) {
    ConnectionTls tls = ConnectionTls.fromUrl(url, Driver.MYSQL);
    o.setSslMode(switch (tls.mode()) {
      case DISABLE -> io.vertx.mysqlclient.SslMode.DISABLED;
      case PREFER -> io.vertx.mysqlclient.SslMode.PREFERRED;
      // the driver checks no certificate under REQUIRED; with a CA given, libpq's rule (verify the chain) holds
      case REQUIRE -> tls.verifiesChain() ? io.vertx.mysqlclient.SslMode.VERIFY_CA : io.vertx.mysqlclient.SslMode.REQUIRED;
      case VERIFY_CA -> io.vertx.mysqlclient.SslMode.VERIFY_CA;
      case VERIFY_FULL -> io.vertx.mysqlclient.SslMode.VERIFY_IDENTITY;
      case ALLOW -> throw new IllegalStateException("allow is refused for mysql by ConnectionTls");
    });
    if (tls.mode() != TlsMode.DISABLE) {
      o.setSslOptions(tls.sslOptions(url));
    }
    return o;
  }
}
