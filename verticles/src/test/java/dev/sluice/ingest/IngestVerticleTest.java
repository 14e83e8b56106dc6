package dev.sluice.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.IngestConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlError;
import dev.sluice.wiki.WikiPage;
import dev.sluice.wiki.WikiStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ingest verticle on real files: validation, idempotency, conflicts, concurrency, recovery. */
class IngestVerticleTest {

  @TempDir
  Path dir;

  private Vertx vertx;

  private static final List<ConnectionConfig> CONNECTIONS = List.of(
      new ConnectionConfig("shop", Driver.SQLITE, null, "/nonexistent/shop.sqlite", null, null, null, 1, 1, 1000, 1, 1),
      new ConnectionConfig("crm", Driver.SQLITE, null, "/nonexistent/crm.sqlite", null, null, null, 1, 1, 1000, 1, 1));

  private void start(IngestConfig settings) throws Exception {
    if (vertx == null) {
      vertx = Vertx.vertx();
    }
    vertx.deployVerticle(new IngestVerticle(CONNECTIONS, settings, dir)).await(30, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    if (vertx != null) {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  private Future<JsonObject> submit(String content, String connectionId) {
    return vertx.eventBus().<JsonObject>request(IngestBus.SUBMIT, new JsonObject().put("content", content)
        .put("connectionId", connectionId).put("source", "test")).map(m -> m.body());
  }

  private JsonObject awaitDone(String runId) throws Exception {
    for (int i = 0; i < 600; i++) {
      JsonObject s = vertx.eventBus().<JsonObject>request(IngestBus.STATUS, new JsonObject().put("runId", runId))
          .await(10, TimeUnit.SECONDS).body();
      if ("completed".equals(s.getString("status")) || "failed".equals(s.getString("status"))) {
        return s;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("run " + runId + " never finished");
  }

  private SqlError refused(String content, String connectionId) throws Exception {
    Future<JsonObject> f = submit(content, connectionId);
    f.otherwiseEmpty().await(10, TimeUnit.SECONDS);
    assertTrue(f.failed(), "expected a refusal");
    return SqlError.from(f.cause());
  }

  @Test
  void badInputsGetASpecificReasonAndWriteNothing() throws Exception {
    start(IngestConfig.defaults());
    assertEquals("empty", refused("  \n ", null).details().getString("reason"));
    String big = "# Big\n" + "x".repeat(10 * 1024 * 1024);
    SqlError tooLarge = refused(big, null);
    assertEquals("too_large", tooLarge.details().getString("reason"));
    assertTrue(tooLarge.getMessage().contains("262144"), tooLarge.getMessage());
    assertEquals("not_text", refused("# Blob\n\u0000\u0001\u0002binary\u0003", null).details().getString("reason"));
    assertEquals("unsafe_key", refused("# ../../etc/passwd\nroot", null).details().getString("reason"));
    assertEquals("unsafe_key", refused("## notes/..\\evil\ntext", null).details().getString("reason"));
    assertEquals("no_key", refused("# ***\n", null).details().getString("reason"));
    SqlError unknown = refused("# Fine\ntext", "nope");
    assertEquals("invalid_argument", unknown.type().wireName());
    assertTrue(unknown.getMessage().contains("[shop, crm]"), unknown.getMessage());
    assertFalse(Files.exists(dir.resolve("wiki")), "no page may be written");
    assertFalse(Files.exists(dir.resolve("ingest/runs")) && Files.list(dir.resolve("ingest/runs")).findAny().isPresent(),
        "no run may be recorded");
  }

  private Future<JsonObject> status(String runId, String principal) {
    return vertx.eventBus().<JsonObject>request(IngestBus.STATUS, new JsonObject().put("runId", runId)
        .put("principal", principal)).map(m -> m.body());
  }

  @Test
  void aRunIsVisibleToThePrincipalThatStartedItOnly() throws Exception {
    start(IngestConfig.defaults());
    String runId = vertx.eventBus().<JsonObject>request(IngestBus.SUBMIT, new JsonObject()
        .put("content", "# Churn\nChurn is counted monthly.\n").put("source", "test").put("principal", "analyst"))
        .await(10, TimeUnit.SECONDS).body().getString("runId");
    awaitDone(runId);
    assertEquals("completed", status(runId, "analyst").await(10, TimeUnit.SECONDS).getString("status"));
    assertFalse(status(runId, "analyst").await(10, TimeUnit.SECONDS).containsKey("principal"),
        "the status does not name its owner");
    Future<JsonObject> other = status(runId, "auditor");
    other.otherwiseEmpty().await(10, TimeUnit.SECONDS);
    SqlError hidden = SqlError.from(other.cause());
    assertEquals("not_found", hidden.type().wireName(), "another principal's run answers like an unknown one");
    Future<JsonObject> unknown = status("00000000-0000-0000-0000-00000000000f", "auditor");
    unknown.otherwiseEmpty().await(10, TimeUnit.SECONDS);
    assertEquals(SqlError.from(unknown.cause()).getMessage().replace("00000000-0000-0000-0000-00000000000f", runId),
        hidden.getMessage());
    // a run without a principal (the CLI's) is visible to every principal
    String cli = submit("# Cli note\nWritten by an operator.\n", null).await(10, TimeUnit.SECONDS).getString("runId");
    assertEquals(cli, status(cli, "auditor").await(10, TimeUnit.SECONDS).getString("runId"));
    // let it finish writing its pages before the temporary directory is deleted
    awaitDone(cli);
  }

  @Test
  void finishedRunsAreRemovedAfterKeepRunsMsAndTheirPagesStay() throws Exception {
    start(new IngestConfig(1_000, 2, 256 * 1024, null, 1_000));
    String runId = submit("# Old note\nKept as a page.\n", null).await(10, TimeUnit.SECONDS).getString("runId");
    assertEquals("completed", awaitDone(runId).getString("status"));
    Path state = dir.resolve("ingest/runs/" + runId + ".json");
    assertTrue(Files.exists(state));
    SqlError gone = null;
    for (int i = 0; i < 100 && gone == null; i++) {
      Thread.sleep(100);
      Future<JsonObject> s = status(runId, null);
      s.otherwiseEmpty().await(10, TimeUnit.SECONDS);
      gone = s.failed() ? SqlError.from(s.cause()) : null;
    }
    assertTrue(gone != null, "the run is still answered 10 s after keep_runs_ms (1 s)");
    assertEquals("not_found", gone.type().wireName());
    assertTrue(gone.getMessage().contains("ingest.keep_runs_ms"), gone.getMessage());
    // the files go on a worker thread right after the run leaves the map
    Path note = dir.resolve("ingest/runs/" + runId + ".md");
    for (int i = 0; i < 100 && (Files.exists(state) || Files.exists(note)); i++) {
      Thread.sleep(50);
    }
    assertFalse(Files.exists(state));
    assertFalse(Files.exists(note));
    assertTrue(new WikiStore(dir).read("old-note").isPresent(), "the page outlives its run");
  }

  @Test
  void samePageTwiceIsANoOpAndDifferentContentIsAConflict() throws Exception {
    start(IngestConfig.defaults());
    String note = "# Net revenue\nNet revenue is the sum of order totals minus refunds. #finance\n";
    JsonObject first = awaitDone(submit(note, "shop").await(10, TimeUnit.SECONDS).getString("runId"));
    assertEquals("completed", first.getString("status"), first.encode());
    assertEquals(new JsonObject().put("key", "net-revenue").put("action", "created"),
        first.getJsonArray("pages").getJsonObject(0));
    JsonObject again = awaitDone(submit(note, "shop").await(10, TimeUnit.SECONDS).getString("runId"));
    assertEquals("unchanged", again.getJsonArray("pages").getJsonObject(0).getString("action"));
    JsonObject changed = awaitDone(submit(note + "\nAlso taxes.\n", "shop").await(10, TimeUnit.SECONDS)
        .getString("runId"));
    assertEquals("failed", changed.getString("status"));
    assertEquals("conflict", changed.getJsonObject("error").getString("type"));
    JsonObject otherScope = awaitDone(submit(note, "crm").await(10, TimeUnit.SECONDS).getString("runId"));
    assertEquals("conflict", otherScope.getJsonObject("error").getString("type"));
    assertTrue(otherScope.getJsonObject("error").getString("message").contains("scoped to [shop]"),
        otherScope.encode());
    WikiPage page = new WikiStore(dir).read("net-revenue").orElseThrow();
    assertEquals("Net revenue", page.title());
    assertEquals("Net revenue is the sum of order totals minus refunds", page.summary());
    assertEquals(List.of("finance"), page.tags());
    assertEquals(List.of("shop"), page.connections());
    assertTrue(page.body().startsWith("# Net revenue\nNet revenue is the sum"), page.body());
  }

  @Test
  void twoHundredConcurrentRunsAllCompleteWithNoPageLostOrDuplicated() throws Exception {
    start(new IngestConfig(1_000, 4, 256 * 1024));
    List<Future<JsonObject>> submitted = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      // every tenth note repeats an earlier one: it must come back unchanged, not as a second page
      int n = i % 10 == 9 ? i - 1 : i;
      submitted.add(submit("# Finding " + n + "\nNote number " + n + " about orders.\n", i % 2 == 0 ? "shop" : null));
    }
    List<String> runIds = new ArrayList<>();
    for (Future<JsonObject> f : submitted) {
      runIds.add(f.await(30, TimeUnit.SECONDS).getString("runId"));
    }
    assertEquals(200, new HashSet<>(runIds).size());
    int created = 0;
    int unchangedOrConflict = 0;
    for (String id : runIds) {
      JsonObject s = awaitDone(id);
      if ("completed".equals(s.getString("status"))) {
        String action = s.getJsonArray("pages").getJsonObject(0).getString("action");
        created += "created".equals(action) ? 1 : 0;
        unchangedOrConflict += "unchanged".equals(action) ? 1 : 0;
      } else {
        // a repeat submitted with the other scope than its original is a conflict, by design
        assertEquals("conflict", s.getJsonObject("error").getString("type"), s.encode());
        unchangedOrConflict++;
      }
    }
    assertEquals(180, created);
    assertEquals(20, unchangedOrConflict);
    Set<String> keys = new HashSet<>();
    new WikiStore(dir).all().forEach(p -> keys.add(p.key()));
    assertEquals(180, keys.size());
    try (Stream<Path> files = Files.list(dir.resolve("wiki"))) {
      assertEquals(180, files.count(), "no temporary or duplicate files");
    }
  }

  @Test
  void runsLeftQueuedOrRunningByADeadProcessFinishAfterRestart() throws Exception {
    RunStore store = new RunStore(new dev.sluice.state.DirectoryStateStore(dir));
    IngestRun queued = IngestRun.queued("00000000-0000-0000-0000-000000000001", null, "test",
        "2026-01-01T00:00:00Z", null, null, null);
    store.create(queued, "# Left queued\nSome text.\n", "old-process", 60_000);
    IngestRun running = IngestRun.queued("00000000-0000-0000-0000-000000000002", "shop", "test",
        "2026-01-01T00:00:01Z", null, null, null);
    store.create(running, "# Left running\nMore text.\n", "old-process", 60_000);
    store.save(running.running("2026-01-01T00:00:02Z"));
    Files.createDirectories(dir.resolve("wiki"));
    Files.writeString(dir.resolve("wiki/.left-running.123.tmp"), "---\ntitle: half");
    // younger temporaries may belong to a write in progress; this one is from a process long gone
    Files.setLastModifiedTime(dir.resolve("wiki/.left-running.123.tmp"), java.nio.file.attribute.FileTime.fromMillis(0));
    start(IngestConfig.defaults());
    assertEquals("completed", awaitDone(queued.runId()).getString("status"));
    assertEquals("completed", awaitDone(running.runId()).getString("status"));
    assertFalse(Files.exists(dir.resolve("wiki/.left-running.123.tmp")), "half-written files are removed");
    assertEquals(2, new WikiStore(dir).all().size());
  }

  /** A slow model keeps the one worker busy, so the bounded queue fills deterministically. */
  @Test
  void aFullQueueIsBusyWithRetryAfterAndWritesNothing() throws Exception {
    com.sun.net.httpserver.HttpServer slow = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    slow.createContext("/v1/chat/completions", ex -> {
      try {
        Thread.sleep(1_500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      byte[] body = "{\"choices\":[{\"message\":{\"content\":\"{}\"}}]}".getBytes();
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    slow.start();
    try {
      start(new IngestConfig(2, 1, 1024, new IngestConfig.Model("http://127.0.0.1:" + slow.getAddress().getPort()
          + "/v1", null, "slow", 10_000)));
      List<String> accepted = new ArrayList<>();
      accepted.add(submit("# Q0\nfirst", null).await(10, TimeUnit.SECONDS).getString("runId"));
      Thread.sleep(300); // the first run is now running (waiting on the model), not queued
      accepted.add(submit("# Q1\nsecond", null).await(10, TimeUnit.SECONDS).getString("runId"));
      accepted.add(submit("# Q2\nthird", null).await(10, TimeUnit.SECONDS).getString("runId"));
      SqlError busy = refused("# Q3\nfourth", null);
      assertEquals("busy", busy.type().wireName());
      assertEquals(IngestVerticle.RETRY_AFTER_MS, busy.details().getLong("retryAfterMs"));
      for (String id : accepted) {
        assertEquals("completed", awaitDone(id).getString("status"));
      }
      assertEquals(3, new WikiStore(dir).all().size(), "the refused note wrote nothing");
    } finally {
      slow.stop(0);
    }
  }
}
