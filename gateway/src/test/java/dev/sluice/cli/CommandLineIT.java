package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.NodeClients;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command-line contract of the packaged jar. */
class CommandLineIT {

  @TempDir
  Path dir;

  private Process start(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", NodeClients.projectRoot().resolve("gateway/target/sluice.jar").toString()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).directory(dir.toFile()).start();
  }

  @Test
  void badConfigNamesTheKeyInOneLine() throws Exception {
    Path cfg = Files.writeString(dir.resolve("bad.yaml"),
        "connections:\n  - id: a\n    driver: sqlite\n    path: x.db\n    query_timeout_ms: -1\n");
    Process p = start("--config", cfg.toString());
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(2, p.exitValue());
    assertEquals("sluice: config error: connections[0].query_timeout_ms: must be a positive integer"
        + " (at most 86400000), got -1", err);
    assertFalse(err.contains("Exception"));
  }

  @Test
  void nonLoopbackWithoutTokenRefusesToStart() throws Exception {
    Process p = start("--host", "0.0.0.0", "--port", "0");
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue());
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(err.contains("server.token") && err.contains("refusing to start"), err);
  }

  @Test
  void startsOnAFreePortAndPrintsTheUrl() throws Exception {
    Path cfg = Files.writeString(dir.resolve("ok.yaml"), "state:\n  dir: st\n");
    Process p = start("--config", cfg.toString(), "--port", "0");
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.matches("Sluice .* serving MCP at http://127\\.0\\.0\\.1:\\d+/mcp"), line);
      String url = line.substring(line.indexOf("http://"));
      HttpResponse<String> health = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url.replace("/mcp", "/health"))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, health.statusCode());
      assertTrue(health.body().contains("\"uptimeMs\""), health.body());
      assertTrue(Files.exists(dir.resolve("st/demo.sqlite")), "the demo database is generated on first start");
    } finally {
      List<ProcessHandle> workers = sqliteWorkers(p);
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the gateway stops on SIGTERM");
      awaitGone(workers, "SIGTERM (shutdown hook)");
    }
  }

  @Test
  void sqliteWorkersDieWithAKilledGateway() throws Exception {
    Path cfg = Files.writeString(dir.resolve("ok.yaml"), "state:\n  dir: st\n");
    Process p = start("--config", cfg.toString(), "--port", "0");
    try {
      String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertTrue(line != null && line.contains("serving MCP"), line);
      List<ProcessHandle> workers = sqliteWorkers(p);
      assertFalse(workers.isEmpty(), "the demo connection keeps warm workers");
      // SIGKILL: no shutdown hook runs, so only the workers' own parent watch can end them
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      awaitGone(workers, "SIGKILL of the gateway (parent watch)");
    } finally {
      p.destroyForcibly();
    }
  }

  /** The gateway's SQLite worker processes, once its warm pool is up. */
  private static List<ProcessHandle> sqliteWorkers(Process gateway) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<ProcessHandle> workers = List.of();
    while (System.nanoTime() < until && workers.isEmpty()) {
      workers = gateway.descendants()
          .filter(h -> h.info().commandLine().map(c -> c.contains("-Dsluice.sqlite.worker=")).orElse(false))
          .toList();
      Thread.sleep(100);
    }
    return workers;
  }

  private static void awaitGone(List<ProcessHandle> workers, String after) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (workers.stream().anyMatch(ProcessHandle::isAlive)) {
      if (System.nanoTime() > until) {
        workers.forEach(ProcessHandle::destroyForcibly);
        throw new AssertionError("SQLite workers still alive 10 s after " + after);
      }
      Thread.sleep(50);
    }
  }
}
