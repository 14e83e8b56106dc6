package dev.sluice.engine.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real worker process given several jobs in one read: their answers leave together, except
 * that a job running past a moment does not keep the answers computed before it.
 */
class WorkerOutputTest {

  /** 200^5 rows to count: it runs far longer than any test waits. */
  private static final String RUNAWAY = "SELECT count(*) FROM r a, r b, r c, r d, r e";

  @TempDir
  Path dir;
  private Process worker;
  private final BlockingQueue<JsonObject> lines = new LinkedBlockingQueue<>();

  @AfterEach
  void stop() throws Exception {
    if (worker != null) {
      worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private OutputStream start() throws Exception {
    Path db = dir.resolve("held.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE r (n INTEGER)");
      st.execute("WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 200) INSERT INTO r SELECT n FROM g");
    }
    worker = new ProcessBuilder(SqliteWorker.command(db, SqliteWorker.DEFAULT_HEAP, false)).start();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))) {
        for (String l; (l = in.readLine()) != null; ) {
          if (l.startsWith("{")) { // as the gateway does, it skips what is not an answer (a log line)
            lines.add(new JsonObject(l));
          }
        }
      } catch (Exception gone) {
        // the process was killed
      }
    });
    reader.setDaemon(true);
    reader.start();
    JsonObject ready = lines.poll(30, TimeUnit.SECONDS);
    assertNotNull(ready, "the worker did not start");
    assertEquals("ready", ready.getString("type"), ready.encode());
    return worker.getOutputStream();
  }

  private static String job(String id, String sql) {
    return new JsonObject().put("id", id).put("sql", sql).put("maxRows", 10).put("mode", "query").encode() + "\n";
  }

  @Test
  void aQuickAnswerIsNotHeldBehindARunawayReadWithIt() throws Exception {
    OutputStream stdin = start();
    // one write, one read on the worker's side: the two jobs are a batch
    stdin.write((job("quick", "SELECT max(n) FROM r") + job("runaway", RUNAWAY)).getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    long t0 = System.nanoTime();
    JsonObject answer = lines.poll(5, TimeUnit.SECONDS);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertNotNull(answer, "the quick job's answer waited behind the runaway read with it");
    assertEquals("quick", answer.getString("id"), answer.encode());
    assertEquals("result", answer.getString("type"), answer.encode());
    assertEquals(200, answer.getJsonArray("rows").getJsonArray(0).getInteger(0));
    assertTrue(worker.isAlive(), "the runaway still runs");
    assertEquals(0, lines.size(), "nothing from the runaway yet");
    System.out.printf("[sqlite] a quick answer read together with a runaway left after %d ms%n", ms);
  }

  @Test
  void jobsReadTogetherAreAnsweredInOrder() throws Exception {
    OutputStream stdin = start();
    StringBuilder batch = new StringBuilder();
    for (int i = 1; i <= 20; i++) {
      batch.append(job("q" + i, "SELECT n FROM r WHERE n = " + i));
    }
    stdin.write(batch.toString().getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    for (int i = 1; i <= 20; i++) {
      JsonObject answer = lines.poll(10, TimeUnit.SECONDS);
      assertNotNull(answer, "answer " + i);
      assertEquals("q" + i, answer.getString("id"), "in order");
      assertEquals(i, answer.getJsonArray("rows").getJsonArray(0).getInteger(0));
    }
  }
}
