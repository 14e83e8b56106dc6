package dev.sluice.engine.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker's kept prepared statements, on a real SQLite file with a second connection writing
 * to it: a kept statement sees new rows and new columns, holds no lock once its result is read,
 * and a statement that failed is prepared afresh.
 */
class WorkerQueryTest {

  @TempDir
  Path dir;
  private Connection writer;
  private Connection reader;
  private WorkerQuery worker;

  @BeforeEach
  void open() throws Exception {
    Path db = dir.resolve("t.db");
    writer = DriverManager.getConnection("jdbc:sqlite:" + db);
    write("CREATE TABLE t(a INTEGER, b TEXT)", "INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    // opened as the worker opens it: read-only
    reader = DriverManager.getConnection("jdbc:sqlite:file:" + db + "?mode=ro");
    worker = new WorkerQuery(reader, line -> { });
  }

  @AfterEach
  void close() throws Exception {
    reader.close();
    writer.close();
  }

  private void write(String... sql) throws Exception {
    try (Statement st = writer.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  private JsonObject query(String sql, int maxRows) {
    return worker.run(new JsonObject().put("id", "q").put("sql", sql).put("maxRows", maxRows));
  }

  @Test
  void aRepeatedStatementSeesNewRowsAndNewColumns() throws Exception {
    assertEquals(3, query("SELECT * FROM t", 100).getInteger("rowCount"));
    write("INSERT INTO t VALUES (4, 'w')");
    assertEquals(4, query("SELECT * FROM t", 100).getInteger("rowCount"));
    write("ALTER TABLE t ADD COLUMN c TEXT DEFAULT 'new'");
    JsonObject wider = query("SELECT * FROM t", 100);
    assertEquals(new JsonArray().add("a").add("b").add("c"), wider.getJsonArray("headers"));
    assertEquals("new", wider.getJsonArray("rows").getJsonArray(0).getString(2));
    write("DROP TABLE t", "CREATE TABLE t(k TEXT)", "INSERT INTO t VALUES ('only')");
    JsonObject other = query("SELECT * FROM t", 100);
    assertEquals(new JsonArray().add("k"), other.getJsonArray("headers"));
    assertEquals(new JsonArray().add(new JsonArray().add("only")), other.getJsonArray("rows"));
  }

  @Test
  void aKeptStatementHoldsNoLockAfterAResultCutShort() throws Exception {
    JsonObject cut = query("SELECT a FROM t ORDER BY a", 1);
    assertEquals(true, cut.getBoolean("truncated"));
    // a reader still inside its read would make this write fail at once with SQLITE_BUSY
    write("INSERT INTO t VALUES (5, 'v')");
    assertEquals(4, query("SELECT a FROM t ORDER BY a", 100).getInteger("rowCount"));
  }

  @Test
  void parametersOfOneCallDoNotLeakIntoTheNext() {
    String sql = "SELECT b FROM t WHERE a = ?";
    JsonObject first = worker.run(new JsonObject().put("id", "1").put("sql", sql).put("maxRows", 10)
        .put("params", new JsonArray().add(1)));
    JsonObject second = worker.run(new JsonObject().put("id", "2").put("sql", sql).put("maxRows", 10)
        .put("params", new JsonArray().add(3)));
    assertEquals("x", first.getJsonArray("rows").getJsonArray(0).getString(0));
    assertEquals("z", second.getJsonArray("rows").getJsonArray(0).getString(0));
  }

  @Test
  void moreStatementsThanAreKeptStillAnswerRightAndAFailureIsPreparedAfresh() {
    List<Integer> counts = new ArrayList<>();
    for (int i = 0; i < WorkerQuery.PREPARED + 8; i++) {
      counts.add(query("SELECT a FROM t WHERE a > " + (i % 3), 100).getInteger("rowCount"));
    }
    assertEquals(List.of(3, 2, 1), counts.subList(0, 3));
    assertEquals(3, query("SELECT a FROM t WHERE a > 0", 100).getInteger("rowCount"), "evicted, prepared again");
    // fails while stepping, after the statement was prepared and kept
    String overflow = "SELECT abs(-9223372036854775807 - 1) FROM t";
    assertEquals("error", query(overflow, 10).getString("type"));
    assertEquals("error", query(overflow, 10).getString("type"));
    assertEquals(3, query("SELECT * FROM t", 100).getInteger("rowCount"));
  }
}
