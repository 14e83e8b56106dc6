package dev.sluice.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A PostgreSQL 15 that accepts TLS connections only, made for one test class: {@code initdb} (as
 * user postgres when the tests run as root) into a temp directory, {@code ssl = on} with the
 * server certificate of {@link TestCertificates}, {@code hostssl} lines only in pg_hba.conf
 * ({@link TestCertificates#CLIENT_USER} by client certificate, everyone else trusted), on a free
 * loopback port. {@link #close()} stops it and removes the directory.
 */
public final class ThrowawayPostgres implements AutoCloseable {

  public static final Path BIN = Path.of(System.getenv().getOrDefault("SLUICE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"));
  private static final String OS_USER = "postgres";

  public final int port;
  private final Path dir;
  private final Path data;
  private final Path log;
  private final Thread stopOnExit;

  private ThrowawayPostgres(Path dir, int port) {
    this.dir = dir;
    this.port = port;
    this.data = dir.resolve("data");
    this.log = dir.resolve("server.log");
    this.stopOnExit = new Thread(this::stop, "stop-throwaway-postgres");
  }

  /** Starts the server; skips (locally) or fails (CI) when PostgreSQL 15 is not installed. */
  public static ThrowawayPostgres start(TestCertificates certs) throws Exception {
    ThrowawayServers.requireExecutable("PostgreSQL 15 initdb", BIN.resolve("initdb"));
    // /tmp rather than the test's own temp directory: the server runs as postgres and must reach it
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "sluice-pgtls",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    ThrowawayPostgres pg = new ThrowawayPostgres(dir, ThrowawayServers.freePort());
    try {
      pg.init(certs);
      Runtime.getRuntime().addShutdownHook(pg.stopOnExit);
      ThrowawayServers.run(pg.log, OS_USER, 60, BIN.resolve("pg_ctl").toString(), "-D", pg.data.toString(),
          "-l", pg.log.toString(), "-w", "-t", "60", "-o",
          "-p " + pg.port + " -k " + dir + " -c listen_addresses=127.0.0.1", "start");
      pg.psql("CREATE ROLE " + TestCertificates.CLIENT_USER + " LOGIN");
      return pg;
    } catch (Exception | AssertionError e) {
      pg.close();
      throw e;
    }
  }

  private void init(TestCertificates certs) throws Exception {
    Files.writeString(log, "", StandardCharsets.UTF_8);
    ThrowawayServers.chown(dir, OS_USER);
    ThrowawayServers.run(log, OS_USER, 120, BIN.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres",
        "--auth=trust", "--no-sync", "-E", "UTF8");
    Files.copy(certs.serverCert(), data.resolve("server.crt"));
    Files.copy(certs.serverKey(), data.resolve("server.key"));
    Files.copy(certs.ca(), data.resolve("root.crt"));
    Files.setPosixFilePermissions(data.resolve("server.key"), PosixFilePermissions.fromString("rw-------"));
    Files.writeString(data.resolve("postgresql.conf"), """

        ssl = on
        ssl_cert_file = 'server.crt'
        ssl_key_file = 'server.key'
        ssl_ca_file = 'root.crt'
        fsync = off
        max_connections = 30
        """, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    // TLS only: no plain "host" line, so a connection without TLS finds no entry and is refused
    Files.writeString(data.resolve("pg_hba.conf"), """
        local   all  all                       trust
        hostssl all  %s  127.0.0.1/32  cert
        hostssl all  all       127.0.0.1/32  trust
        """.formatted(TestCertificates.CLIENT_USER), StandardCharsets.UTF_8);
    ThrowawayServers.chown(dir, OS_USER);
  }

  private void psql(String sql) throws Exception {
    ThrowawayServers.run(log, OS_USER, 30, BIN.resolve("psql").toString(), "-h", dir.toString(), "-p",
        Integer.toString(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql);
  }

  /** {@code postgresql://user@host:port/postgres?params} */
  public String url(String user, String host, String params) {
    return "postgresql://" + user + "@" + host + ":" + port + "/postgres" + (params.isEmpty() ? "" : "?" + params);
  }

  private void stop() {
    try {
      if (Files.exists(data.resolve("postmaster.pid"))) {
        ThrowawayServers.run(log, OS_USER, 60, BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m",
            "immediate", "-w", "stop");
      }
    } catch (Exception e) {
      System.err.println("could not stop the throwaway PostgreSQL in " + dir + ": " + e.getMessage());
    }
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException | IllegalArgumentException ignored) {
      // exiting, or never registered
    }
    ThrowawayServers.delete(dir);
  }
}
