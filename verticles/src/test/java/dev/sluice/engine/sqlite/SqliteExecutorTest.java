package dev.sluice.engine.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite executor's process contract, checked on real worker processes by PID: a runaway or
 * cancelled query's worker is killed and replaced, a worker killed from outside fails its call
 * cleanly, a memory-blowing query takes down only its worker, a full queue answers busy at once,
 * the pool grows from one worker as calls wait, and no worker outlives its verticle.
 */
class SqliteExecutorTest {

  private static final long DEADLINE_MS = 2_000;
  /** CPU-bound: SQLite never yields, only SIGKILL stops it. */
  private static final String CPU_RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
      + " SELECT count(*) FROM c";
  /** A cross join of the table with itself three times: long, but from real rows. */
  private static final String JOIN_RUNAWAY = "SELECT count(*) FROM n a, n b, n c, n d";

  @TempDir
  Path dir;

  private Vertx vertx;
  private dev.sluice.sql.SqlExecutorVerticle executor;
  private String deploymentId;
  private Path db;

  @BeforeEach
  void start() throws Exception {
    db = dir.resolve("exec.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE n (i INTEGER PRIMARY KEY)");
      c.createStatement().execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000)"
          + " INSERT INTO n SELECT x FROM c");
    }
    vertx = Vertx.vertx();
    deploy(DEADLINE_MS);
  }

  /** One connection "lite" on the test database: pool 1, queue 2, a 64m worker heap. */
  private void deploy(long deadlineMs) throws Exception {
    deploy(deadlineMs, 1, 2);
  }

  private void deploy(long deadlineMs, int poolSize, int queue) throws Exception {
    ConnectionConfig cfg = new ConnectionConfig("lite", Driver.SQLITE, null, db.toString(), null, null, null,
        poolSize, queue, deadlineMs, 100, 1_000);
    executor = new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.sqlite.SqliteEngine.withWorkerHeap("64m"), List.of(cfg));
    deploymentId = vertx.deployVerticle(executor).await(60, TimeUnit.SECONDS);
    awaitWorkers(1);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
  }

  @Test
  void runawaysEndAtTheDeadlineAndTheirWorkerIsKilledAndReplaced() throws Exception {
    for (String sql : List.of(CPU_RUNAWAY, JOIN_RUNAWAY)) {
      long pid = onlyWorker();
      long t0 = System.nanoTime();
      JsonObject err = failure(execute("runaway", sql));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals("timeout", err.getString("error_type"), err.encode());
      assertEquals("query exceeded 2s", err.getString("message"));
      assertTrue(tookMs < DEADLINE_MS + 1_000, sql + " answered after " + tookMs + " ms");
      awaitDead(pid);
      long next = awaitWorkers(1).get(0);
      assertNotEquals(pid, next);
      assertEquals(1, rows(execute("after", "SELECT count(*) FROM n")));
    }
  }

  @Test
  void cancelKillsTheWorkerAndTheNextCallSucceeds() throws Exception {
    long pid = onlyWorker();
    Future<JsonObject> running = execute("to-cancel", CPU_RUNAWAY);
    Thread.sleep(300);
    JsonObject ack = vertx.eventBus().<JsonObject>request(SqlBus.cancel(Driver.SQLITE),
        new JsonObject().put("queryId", "to-cancel")).await(10, TimeUnit.SECONDS).body();
    assertTrue(ack.getBoolean("cancelled"), ack.encode());
    assertEquals("cancelled", failure(running).getString("error_type"));
    awaitDead(pid);
    // the replacement's cold start (seconds on a loaded machine) is not what this test measures
    assertNotEquals(pid, awaitWorkers(1).get(0));
    assertEquals(1, rows(execute("after", "SELECT 1")));
  }

  @Test
  void workerKilledFromOutsideFailsItsCallCleanly() throws Exception {
    long pid = onlyWorker();
    Future<JsonObject> running = execute("victim", CPU_RUNAWAY);
    Thread.sleep(300);
    new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
    JsonObject err = failure(running);
    assertEquals("connection_error", err.getString("error_type"), err.encode());
    assertTrue(err.getString("message").contains("died"), err.getString("message"));
    assertFalse(err.encode().contains("Exception"), "no Java exception text reaches the agent: " + err.encode());
    long next = awaitWorkers(1).get(0);
    assertNotEquals(pid, next);
    assertEquals(1, rows(execute("after", "SELECT 1")));
    // the operator's view: the replacement by pid, the job it served, one restart
    JsonObject info = vertx.eventBus().<JsonObject>request(SqlBus.info(Driver.SQLITE),
        new JsonObject().put("connectionId", "lite")).await(10, TimeUnit.SECONDS).body();
    assertEquals(1L, info.getLong("restarts"), info.encode());
    JsonObject worker = info.getJsonArray("workers").getJsonObject(0);
    assertEquals(next, worker.getLong("pid"), info.encode());
    assertEquals(1L, worker.getLong("jobs"), info.encode());
    assertFalse(worker.getBoolean("busy"), info.encode());
  }

  @Test
  void memoryBlowupKillsOnlyTheWorker() throws Exception {
    // A worker JVM needs about a second to run out of heap; on a loaded machine that came close to
    // the 2 s deadline, and a timeout is not what this test is about.
    vertx.undeploy(deploymentId).await(30, TimeUnit.SECONDS);
    deploy(30_000);
    long pid = onlyWorker();
    // 200 MB of text in one value: SQLite builds it natively, the 64m worker heap cannot hold it
    JsonObject err = failure(execute("hog", "SELECT printf('%.*c', 200000000, 'x') AS big"));
    assertTrue(List.of("query_error", "connection_error").contains(err.getString("error_type")), err.encode());
    awaitDead(pid);
    // the worker's last answer arrives before its exit is seen: the pool must not reuse it meanwhile
    assertEquals(1, rows(execute("after", "SELECT 1")));
    assertTrue(Runtime.getRuntime().totalMemory() < 1L << 30, "the test JVM never held the value");
  }

  @Test
  void fullQueueAnswersBusyAtOnce() throws Exception {
    // pool 1, queue 2: the fourth concurrent call cannot wait
    List<Future<JsonObject>> hogs = List.of(execute("h1", CPU_RUNAWAY), execute("h2", CPU_RUNAWAY),
        execute("h3", CPU_RUNAWAY));
    long t0 = System.nanoTime();
    JsonObject err = failure(execute("h4", "SELECT 1"));
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals("busy", err.getString("error_type"), err.encode());
    assertTrue(err.getLong("retryAfterMs") > 0, err.encode());
    assertTrue(tookMs < 1_000, "busy must not wait: " + tookMs + " ms");
    for (Future<JsonObject> h : hogs) {
      failure(h);
    }
  }

  @Test
  void thePoolStartsOneWorkerAndGrowsAsCallsWaitUpToItsSize() throws Exception {
    vertx.undeploy(deploymentId).await(30, TimeUnit.SECONDS);
    // a deadline that leaves room for cold worker starts on a loaded machine
    deploy(30_000, 3, 8);
    assertEquals(2, awaitWorkers(2).size(), "two workers at start");
    // five calls at once: two run, the next that waits starts the third, the others wait for one
    // of the three
    List<Future<JsonObject>> calls = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(execute("grow-" + i,
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT count(*) FROM c"));
    }
    for (Future<JsonObject> call : calls) {
      assertEquals(1, rows(call));
    }
    List<Long> grown = awaitWorkers(3);
    assertEquals(3, grown.size(), "pool_size 3: " + grown);
    // started workers stay: calls one at a time afterwards start none and keep these
    for (int i = 0; i < 3; i++) {
      assertEquals(1, rows(execute("after-" + i, "SELECT 1")));
    }
    assertEquals(grown, ((SqliteConnection) executor.connection("lite")).workerPids().await(10, TimeUnit.SECONDS));
    // the test JVM runs at C1 only (the poms' argLine); its workers take that ceiling from it
    List<String> jit = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:TieredStopAtLevel=")).toList();
    assertEquals(1, jit.size(), "the test JVM's own JIT ceiling");
    for (long pid : grown) {
      // /proc directly: ProcessHandle.Info gives no arguments for a command line as long as the classpath
      List<String> args = List.of(new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/" + pid + "/cmdline")),
          java.nio.charset.StandardCharsets.UTF_8).split("\0"));
      assertTrue(args.contains(jit.get(0)), "worker " + pid + ": " + args.subList(0, Math.min(6, args.size())));
    }
  }

  @Test
  void noWorkerOutlivesTheVerticle() throws Exception {
    List<Long> pids = awaitWorkers(1);
    vertx.undeploy(deploymentId).await(30, TimeUnit.SECONDS);
    for (long pid : pids) {
      awaitDead(pid);
    }
    assertEquals(List.of(), workersOf(db), "worker processes left for " + db);
  }

  // ---- helpers

  private Future<JsonObject> execute(String queryId, String sql) {
    return vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.SQLITE),
        SqlBus.queryRequest("lite", queryId, sql, 10)).map(m -> m.body());
  }

  private static int rows(Future<JsonObject> f) throws Exception {
    return f.await(30, TimeUnit.SECONDS).getInteger("rowCount");
  }

  private static JsonObject failure(Future<JsonObject> f) throws Exception {
    try {
      JsonObject ok = f.await(30, TimeUnit.SECONDS);
      return fail("expected a failure, got " + ok.encode());
    } catch (Exception e) {
      Throwable cause = e.getCause() != null && !(e instanceof io.vertx.core.eventbus.ReplyException) ? e.getCause() : e;
      return SqlError.from(cause).toJson();
    }
  }

  private long onlyWorker() throws Exception {
    List<Long> pids = awaitWorkers(1);
    assertEquals(1, pids.size(), "pool_size 1 keeps one worker: " + pids);
    return pids.get(0);
  }

  /** Waits (generously: worker JVMs start in ~1 s, slower on a loaded machine) for n live workers. */
  private List<Long> awaitWorkers(int n) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      List<Long> pids = ((SqliteConnection) executor.connection("lite")).workerPids().await(10, TimeUnit.SECONDS);
      if (pids.size() >= n && pids.stream().allMatch(SqliteExecutorTest::alive)) {
        return pids;
      }
      Thread.sleep(50);
    }
    return fail("no " + n + " live SQLite workers within 30 s");
  }

  private static void awaitDead(long pid) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (alive(pid)) {
      if (System.nanoTime() > until) {
        fail("worker " + pid + " still alive");
      }
      Thread.sleep(20);
    }
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Every SqliteWorkerMain process serving this test's database, in any process tree. */
  static List<Long> workersOf(Path database) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(SqliteWorkerMain.MARKER + database)).orElse(false))
        .filter(ProcessHandle::isAlive)
        .map(ProcessHandle::pid)
        .toList();
  }
}
