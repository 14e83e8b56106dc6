package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.GatewayJar;
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
    return builder(args).start();
  }

  private ProcessBuilder builder(String... args) {
    return new ProcessBuilder(GatewayJar.command(args)).directory(dir.toFile());
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
  void scanWritesASnapshotAndNamesAnUnknownConnection() throws Exception {
    Path cfg = Files.writeString(dir.resolve("scan.yaml"), "state:\n  dir: st\n");
    Process p = start("scan", "demo", "--config", cfg.toString());
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(0, p.exitValue(), out + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertTrue(out.lines().anyMatch(l -> l.matches("scanned demo: 6 tables, 0 problems, \\d+ ms, syncId [0-9a-f-]{36}, "
        + "heap peak \\d+ MiB")), out);
    assertTrue(Files.size(dir.resolve("st/catalog/demo.json")) > 10_000);

    Process bad = start("scan", "nope", "--config", cfg.toString());
    assertTrue(bad.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, bad.exitValue());
    assertEquals("sluice: unknown connection 'nope'; configured: [demo]",
        new String(bad.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim());
  }

  @Test
  void tokenNewPrintsATokenAndItsConfigHash() throws Exception {
    Process p = start("token", "new", "analyst");
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertEquals(0, p.exitValue());
    String token = lines.get(0).substring(lines.get(0).lastIndexOf(' ') + 1);
    assertTrue(token.startsWith("sluice_") && token.length() >= 32, lines.toString());
    assertEquals("  - sha256:" + dev.sluice.config.Tokens.sha256Hex(token), lines.get(2));
    Process bad = start("token", "new", "default");
    assertTrue(bad.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, bad.exitValue());
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
    Path err = dir.resolve("gateway.err");
    // stderr goes to a file: the gateway logs on shutdown, and nobody reads a pipe here
    Process p = builder("--config", cfg.toString(), "--port", "0").redirectError(err.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.matches("Sluice .* serving MCP at http://127\\.0\\.0\\.1:\\d+/mcp"), line);
      String url = line.substring(line.indexOf("http://"));
      String network = out.readLine();
      while (network != null && !network.startsWith("  network: ")) {
        network = out.readLine();
      }
      // the jar carries epoll's natives for the Linux machines it ships for; NIO there is a packaging fault
      assertTrue(network != null && network.equals("  network: epoll (Netty native)"), network);
      HttpResponse<String> health = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url.replace("/mcp", "/health"))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, health.statusCode());
      assertTrue(health.body().contains("\"uptimeMs\""), health.body());
      assertTrue(Files.exists(dir.resolve("st/demo.sqlite")), "the demo database is generated on first start");
      // and the example semantic layer comes out of the jar, so sl_query answers on a first start
      dev.sluice.testing.McpHttpClient c = new dev.sluice.testing.McpHttpClient(url);
      c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      io.vertx.core.json.JsonObject sl = c.callTool("sl_query", new io.vertx.core.json.JsonObject()
          .put("connectionId", "demo").put("measures", new io.vertx.core.json.JsonArray().add("orders.order_count"))
          .put("filters", new io.vertx.core.json.JsonArray().add("orders.status = 'shipped'"))).getJsonObject("result");
      assertFalse(sl.getBoolean("isError"), sl.encode());
      assertTrue(Files.exists(dir.resolve("st/semantic/demo/orders.yaml")));
    } finally {
      List<ProcessHandle> workers = sqliteWorkers(p);
      p.destroy();
      boolean stopped = p.waitFor(30, TimeUnit.SECONDS);
      assertTrue(stopped, () -> "the gateway stops on SIGTERM; its stderr:\n" + readQuietly(err));
      awaitGone(workers, "SIGTERM (shutdown hook)");
    }
  }

  /** Zero-file start: two --connection options and no --config make a working gateway. */
  @Test
  void connectionsFromTheCommandLineNeedNoConfigFile() throws Exception {
    dev.sluice.testing.TestDatabases.requirePostgres();
    Path notes = dir.resolve("notes.db");
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + notes);
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)");
      st.execute("INSERT INTO note (body) VALUES ('first'), ('second')");
    }
    Path err = dir.resolve("gateway.err");
    Process p = builder("--port", "0", "--connection", "notes=sqlite:notes.db",
        "--connection", "pg=" + dev.sluice.testing.TestDatabases.pgUrl(dev.sluice.testing.TestDatabases.PG_DATABASE))
        .redirectError(err.toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line = out.readLine();
      assertTrue(line != null && line.contains("serving MCP at"), line + readQuietly(err));
      assertEquals("  connection notes (sqlite)", out.readLine());
      assertEquals("  connection pg (postgres)", out.readLine());
      dev.sluice.testing.McpHttpClient c = new dev.sluice.testing.McpHttpClient(line.substring(line.indexOf("http://")));
      c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      io.vertx.core.json.JsonObject sqlite = c.callTool("sql_execution", new io.vertx.core.json.JsonObject()
          .put("connectionId", "notes").put("sql", "SELECT count(*) AS n FROM note")).getJsonObject("result");
      assertFalse(sqlite.getBoolean("isError"), sqlite.encode());
      assertEquals(2, sqlite.getJsonObject("structuredContent").getJsonArray("rows").getJsonArray(0).getInteger(0));
      io.vertx.core.json.JsonObject pg = c.callTool("sql_execution", new io.vertx.core.json.JsonObject()
          .put("connectionId", "pg").put("sql", "SELECT current_database() AS db")).getJsonObject("result");
      assertFalse(pg.getBoolean("isError"), pg.encode());
      assertEquals(dev.sluice.testing.TestDatabases.PG_DATABASE,
          pg.getJsonObject("structuredContent").getJsonArray("rows").getJsonArray(0).getString(0));
      assertFalse(Files.exists(dir.resolve("data/demo.sqlite")), "no demo when connections are given");
    } finally {
      List<ProcessHandle> workers = sqliteWorkers(p);
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), () -> readQuietly(err));
      awaitGone(workers, "SIGTERM (shutdown hook)");
    }
    Process bad = start("--connection", "pg=postgresql://u@h/db?sslmod=require");
    assertTrue(bad.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, bad.exitValue());
    assertTrue(new String(bad.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim()
        .startsWith("sluice: config error: --connection pg: unknown URL parameter \"sslmod\"; did you mean sslmode?"));
  }

  /** At a terminal (a pty from script(1)) the log lines are for people; into a pipe they are JSON. */
  @Test
  void logsAreTextAtATerminalAndJsonOtherwise() throws Exception {
    Path cfg = Files.writeString(dir.resolve("ok.yaml"), "state:\n  dir: st\n");
    String gateway = String.join(" ", GatewayJar.command());
    Path typescript = dir.resolve("terminal.txt");
    // script gives the gateway a terminal on stdin and stdout; it exits when told to after start
    Process p = new ProcessBuilder("script", "-qefc", gateway + " --config " + cfg + " --port 0 & "
        // [d]: the pattern must not match the command line that script(1) writes at the top of the file
        + "for i in $(seq 1 100); do sleep 0.5; grep -q 'connection [d]emo' " + typescript + " && break; done; "
        + "sleep 1; kill $!; wait", typescript.toString()).directory(dir.toFile())
        .redirectOutput(dir.resolve("script.out").toFile()).redirectErrorStream(true).start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), readQuietly(dir.resolve("script.out")));
    String screen = Files.readString(typescript);
    assertTrue(screen.contains("serving MCP at"), screen);
    assertTrue(screen.lines().anyMatch(l -> l.matches(".*\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*INFO.*Gateway.* installed the demo's.*")),
        "a readable INFO line from Gateway: " + screen);
    assertFalse(screen.contains("\"@timestamp\""), screen);

    Path err = dir.resolve("pipe.err");
    Path fresh = Files.writeString(dir.resolve("fresh.yaml"), "state:\n  dir: st2\n");
    Process piped = builder("--config", fresh.toString(), "--port", "0").redirectError(err.toFile()).start();
    try {
      new BufferedReader(new InputStreamReader(piped.getInputStream(), StandardCharsets.UTF_8)).readLine();
    } finally {
      piped.destroy();
      assertTrue(piped.waitFor(30, TimeUnit.SECONDS));
    }
    assertTrue(Files.readString(err).lines().anyMatch(l -> l.startsWith("{\"@timestamp\"")), readQuietly(err));
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

  /**
   * kill -9 with memory_ingest runs queued and running: after a restart every run ends completed or
   * failed, each completed run has its page, and no half-written file is left in the wiki.
   */
  @Test
  void ingestRunsSurviveAKillDashNine() throws Exception {
    Path cfg = Files.writeString(dir.resolve("ingest.yaml"), "state:\n  dir: st\ningest:\n  concurrency: 1\n"
        + "catalog:\n  scan_on_start: false\n");
    Process p = start("--config", cfg.toString(), "--port", "0");
    List<String> runIds = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
      String url = line.substring(line.indexOf("http://"));
      java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(8);
      List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
      String filler = "Detail line about orders and payments.\n".repeat(400);
      for (int t = 0; t < 8; t++) {
        int thread = t;
        sent.add(senders.submit(() -> {
          dev.sluice.testing.McpHttpClient c = new dev.sluice.testing.McpHttpClient(url);
          c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
          for (int i = 0; i < 40; i++) {
            io.vertx.core.json.JsonObject r = c.callTool("memory_ingest", new io.vertx.core.json.JsonObject()
                .put("content", "# Crash note " + thread + "-" + i + "\n" + filler)).getJsonObject("result");
            runIds.add(r.getJsonObject("structuredContent").getString("runId"));
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> f : sent) {
        f.get(120, TimeUnit.SECONDS);
      }
      senders.shutdown();
    } finally {
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    }
    assertEquals(320, runIds.size());
    Path runsDir = dir.resolve("st/ingest/runs");
    long unfinished = runIds.stream().filter(id -> {
      try {
        String state = Files.readString(runsDir.resolve(id + ".json"));
        return !state.contains("\"status\":\"completed\"") && !state.contains("\"status\":\"failed\"");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }).count();
    assertTrue(unfinished > 0, "the kill should leave runs queued or running (all 320 had finished)");

    Process again = start("--config", cfg.toString(), "--port", "0");
    try {
      String line = new BufferedReader(new InputStreamReader(again.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
      dev.sluice.testing.McpHttpClient c = new dev.sluice.testing.McpHttpClient(line.substring(line.indexOf("http://")));
      c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      int completed = 0;
      for (String id : runIds) {
        String status = "queued";
        for (int i = 0; i < 1_000 && !status.equals("completed") && !status.equals("failed"); i++) {
          status = c.callTool("memory_ingest_status", new io.vertx.core.json.JsonObject().put("runId", id))
              .getJsonObject("result").getJsonObject("structuredContent").getString("status");
          if (!status.equals("completed") && !status.equals("failed")) {
            Thread.sleep(20);
          }
        }
        assertTrue(status.equals("completed") || status.equals("failed"), id + " still " + status);
        completed += status.equals("completed") ? 1 : 0;
      }
      assertEquals(320, completed, "distinct headings: every run must complete");
      try (var files = Files.list(dir.resolve("st/wiki"))) {
        List<String> names = files.map(f -> f.getFileName().toString()).toList();
        assertTrue(names.stream().noneMatch(n -> n.startsWith(".") || n.endsWith(".tmp")), names.toString());
        assertEquals(320, names.size());
      }
      assertEquals(320, new dev.sluice.wiki.WikiStore(dir.resolve("st")).all().size(), "every page parses");
      System.out.println("kill -9 left " + unfinished + " of 320 runs unfinished; all completed after restart");
    } finally {
      again.destroy();
      assertTrue(again.waitFor(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void ingestFromTheCommandLineUsesTheSamePath() throws Exception {
    Path cfg = Files.writeString(dir.resolve("cli.yaml"), "state:\n  dir: st\n");
    Path note = Files.writeString(dir.resolve("note.md"), "# Fiscal year\nOur fiscal year starts on 1 April.\n");
    Process p = start("ingest", "--file", note.toString(), "--config", cfg.toString(), "--connection", "demo");
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertTrue(out.startsWith("ingested: page fiscal-year (created), run "), out);
    assertTrue(Files.readString(dir.resolve("st/wiki/fiscal-year.md")).contains("connections:\n- demo"),
        Files.readString(dir.resolve("st/wiki/fiscal-year.md")));

    Process again = start("ingest", "--file", note.toString(), "--config", cfg.toString(), "--connection", "demo");
    assertTrue(again.waitFor(60, TimeUnit.SECONDS));
    assertTrue(new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
        .startsWith("ingested: page fiscal-year (unchanged)"));

    Path binary = dir.resolve("blob.bin");
    Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, 3});
    Process bad = start("ingest", "--file", binary.toString(), "--config", cfg.toString());
    assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
    assertEquals(2, bad.exitValue());
    assertTrue(new String(bad.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
        .contains("ingest refused (not_text)"));
  }

  /** The gateway's SQLite worker processes, once its warm pool is up. */
  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

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
