package dev.sluice.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * What the throwaway database servers share: free loopback ports, running a command (as another
 * user when we are root), waiting for a port, and removing a data directory. A missing server
 * binary skips the test locally and fails it under {@code CI=true}, like {@link TestDatabases}.
 */
final class ThrowawayServers {

  private ThrowawayServers() {}

  static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  static void requireExecutable(String what, Path binary) {
    if (!Files.isExecutable(binary)) {
      String msg = what + " is not installed (" + binary + ")";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(msg + " and CI=true: the TLS tests must run in CI");
      }
      Assumptions.abort(msg + "; skipping the TLS test");
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Runs {@code cmd} (as {@code user} when the tests run as root) and fails with its output on a non-zero exit. */
  static String run(Path log, String user, long timeoutSeconds, String... cmd) throws Exception {
    List<String> full = new ArrayList<>();
    if (user != null && root()) {
      full.addAll(List.of("runuser", "-u", user, "--"));
    }
    full.addAll(List.of(cmd));
    Process p = new ProcessBuilder(full).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new IllegalStateException(String.join(" ", cmd) + " timed out:\n" + tail(log));
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + ":\n" + tail(log));
    }
    return tail(log);
  }

  static void awaitPort(int port, long timeoutMs, Path log) throws Exception {
    long until = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < until) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("nothing listens on 127.0.0.1:" + port + " after " + timeoutMs + " ms:\n"
        + tail(log));
  }

  /** Gives {@code dir} and everything in it to {@code user} (the server refuses files it does not own). */
  static void chown(Path dir, String user) throws IOException {
    if (!root()) {
      return;
    }
    UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
    var owner = users.lookupPrincipalByName(user);
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.toList()) {
        Files.setOwner(p, owner);
      }
    }
  }

  static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a leftover temp directory is harmless
    }
  }

  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
