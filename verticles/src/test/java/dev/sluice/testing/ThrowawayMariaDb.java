package dev.sluice.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB that requires TLS ({@code require_secure_transport}), made for one test class:
 * {@code mariadb-install-db} into a temp directory, {@code mariadbd} with the server certificate of
 * {@link TestCertificates} on a free loopback port and its own socket. Users: {@link #USER} with
 * {@link #PASSWORD}, and {@link TestCertificates#CLIENT_USER}, which must present a client
 * certificate ({@code REQUIRE X509}). {@link #close()} stops it and removes the directory.
 */
public final class ThrowawayMariaDb implements AutoCloseable {

  public static final Path MARIADBD = Path.of(System.getenv().getOrDefault("SLUICE_TEST_MARIADBD", "/usr/sbin/mariadbd"));
  public static final String USER = "sluice";
  public static final String PASSWORD = "tls-test-pw";

  public final int port;
  private final Path dir;
  private final Path log;
  private Process server;
  private final Thread stopOnExit;

  private ThrowawayMariaDb(Path dir, int port) {
    this.dir = dir;
    this.port = port;
    this.log = dir.resolve("server.log");
    this.stopOnExit = new Thread(this::stop, "stop-throwaway-mariadb");
  }

  public static ThrowawayMariaDb start(TestCertificates certs) throws Exception {
    ThrowawayServers.requireExecutable("MariaDB server", MARIADBD);
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "sluice-mariadbtls",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    ThrowawayMariaDb db = new ThrowawayMariaDb(dir, ThrowawayServers.freePort());
    try {
      db.launch(certs);
      return db;
    } catch (Exception | AssertionError e) {
      db.close();
      throw e;
    }
  }

  private void launch(TestCertificates certs) throws Exception {
    Path data = dir.resolve("data");
    Files.writeString(log, "", StandardCharsets.UTF_8);
    for (String f : List.of("ca.crt", "server.crt", "server.key")) {
      Files.copy(certs.dir.resolve(f), dir.resolve(f));
    }
    Files.writeString(dir.resolve("init.sql"), """
        CREATE USER IF NOT EXISTS '%1$s'@'%%' IDENTIFIED BY '%2$s';
        GRANT SELECT ON *.* TO '%1$s'@'%%';
        CREATE USER IF NOT EXISTS '%3$s'@'%%' REQUIRE X509;
        GRANT SELECT ON *.* TO '%3$s'@'%%';
        """.formatted(USER, PASSWORD, TestCertificates.CLIENT_USER), StandardCharsets.UTF_8);
    List<String> asUser = ThrowawayServers.root() ? List.of("--user=root") : List.of();
    List<String> install = new ArrayList<>(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + data,
        "--auth-root-authentication-method=normal", "--skip-test-db"));
    install.addAll(asUser);
    ThrowawayServers.run(log, null, 180, install.toArray(String[]::new));
    List<String> cmd = new ArrayList<>(List.of(MARIADBD.toString(), "--no-defaults", "--datadir=" + data,
        "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
        "--pid-file=" + dir.resolve("mysqld.pid"), "--skip-name-resolve", "--skip-log-bin",
        "--innodb-buffer-pool-size=16M", "--log-error=" + log,
        "--ssl-ca=" + dir.resolve("ca.crt"), "--ssl-cert=" + dir.resolve("server.crt"),
        "--ssl-key=" + dir.resolve("server.key"), "--require-secure-transport=ON",
        "--init-file=" + dir.resolve("init.sql")));
    cmd.addAll(asUser);
    server = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile())).start();
    Runtime.getRuntime().addShutdownHook(stopOnExit);
    ThrowawayServers.awaitPort(port, 60_000, log);
    // the port opens before the init file has created the users
    long until = System.currentTimeMillis() + 30_000;
    while (!Files.readString(log).contains("ready for connections") && System.currentTimeMillis() < until) {
      Thread.sleep(100);
    }
  }

  /** {@code mysql://user[:password]@host:port/mysql?params} */
  public String url(String userInfo, String host, String params) {
    return "mysql://" + userInfo + "@" + host + ":" + port + "/mysql" + (params.isEmpty() ? "" : "?" + params);
  }

  private void stop() {
    if (server != null && server.isAlive()) {
      server.destroy();
      try {
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
          server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        server.destroyForcibly();
        Thread.currentThread().interrupt();
      }
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
