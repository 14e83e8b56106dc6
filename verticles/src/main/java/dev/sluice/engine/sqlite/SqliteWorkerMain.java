package dev.sluice.engine.sqlite;

import dev.sluice.bus.JsonBytes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.sqlite.SQLiteConfig;

/**
 * The SQLite worker process: {@code java ... dev.sluice.engine.sqlite.SqliteWorkerMain <dbPath>}. Opens
 * the database read-only, then serves one job at a time, one JSON object per line on stdin, and
 * answers with JSON lines on stdout (see {@link WorkerProtocol}). It is expendable by design: the
 * gateway kills it at a query's deadline and starts another.
 */
public final class SqliteWorkerMain {

  /**
   * Leads a worker's command line, followed by its database path: how the gateway's shutdown hook,
   * CI and operators (pgrep -f) tell workers apart from any other java process.
   */
  public static final String MARKER = "-Dsluice.sqlite.worker=";

  /** Second argument of a read-write worker: the one process that takes gated writes for its file. */
  static final String WRITE_FLAG = "--write";

  private SqliteWorkerMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new java.io.BufferedOutputStream(
        new java.io.FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
    watchParent();
    boolean writer = args.length == 2 && WRITE_FLAG.equals(args[1]);
    if (args.length != 1 && !writer || !new java.io.File(args[0]).canRead()) {
      emit(out, WorkerProtocol.fatal("cannot read SQLite database " + (args.length == 1 ? args[0] : "(none given)")));
      System.exit(2);
    }
    Connection conn;
    try {
      conn = writer ? openForWrites(args[0]) : open(args[0]);
    } catch (Exception e) {
      emit(out, WorkerProtocol.fatal("cannot open SQLite database " + args[0] + ": " + e.getMessage()));
      System.exit(2);
      return;
    }
    String version;
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      version = rs.getString(1);
    }
    emit(out, new JsonObject().put("type", "ready").put("version", version));
    // progress goes out at once; answers wait for the end of the jobs already read, so jobs that
    // arrived together are answered in one write
    WorkerQuery query = new WorkerQuery(conn, line -> emit(out, line));
    // stdin unbuffered: the job lines are split and parsed from their bytes (JsonLines), with no
    // String per job and no FIONREAD after each read, as System.in's buffer would ask
    JsonLines.read(new FileInputStream(FileDescriptor.in), (line, length) -> {
      if (!(JsonBytes.decode(line, 0, length) instanceof JsonObject job)) {
        throw new io.vertx.core.json.DecodeException("a job line is not a JSON object");
      }
      try {
        emit(out, query.run(job), false);
      } catch (OutOfMemoryError oom) {
        // the heap cap did its job; report, then exit so the pool starts a clean worker
        emit(out, WorkerProtocol.retiring(WorkerProtocol.error(job.getString("id"), "query_error",
            "the query needed more memory than the SQLite worker's heap allows; aggregate or filter more")));
        System.exit(3);
      }
    }, out::flush);
    // stdin closed: the gateway is gone or done with us
    System.exit(0);
  }

  private static Connection open(String path) throws Exception {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.setReadOnly(true);
    cfg.setOpenMode(org.sqlite.SQLiteOpenMode.READONLY);
    Properties props = cfg.toProperties();
    Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + path + "?mode=ro", props);
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA query_only = 1");
    }
    noAttach(c);
    return c;
  }

  /** Read-write, one transaction per job (WorkerQuery commits or rolls back); waits on locks briefly. */
  private static Connection openForWrites(String path) throws Exception {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.setBusyTimeout(5_000);
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + path, cfg.toProperties());
    c.setAutoCommit(false);
    noAttach(c);
    return c;
  }

  /** No ATTACH, whatever the guard says: the engine's own limit on attached databases is zero. */
  private static void noAttach(Connection c) throws java.sql.SQLException {
    c.unwrap(org.sqlite.SQLiteConnection.class).setLimit(org.sqlite.SQLiteLimits.SQLITE_LIMIT_ATTACHED, 0);
  }

  /** The answer line being written: one buffer for the worker's life, not 4 KB per answer. */
  private static java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream(4_096);

  /** One answer line, encoded straight to UTF-8 bytes (the worker's only thread writes them). */
  private static void emit(PrintStream out, JsonObject line) {
    emit(out, line, true);
  }

  private static void emit(PrintStream out, JsonObject line, boolean flush) {
    java.io.ByteArrayOutputStream bytes = answer;
    bytes.reset();
    JsonBytes.write(line, bytes);
    bytes.write('\n');
    try {
      bytes.writeTo(out);
    } catch (java.io.IOException printStreamsDoNotThrow) {
      throw new java.io.UncheckedIOException(printStreamsDoNotThrow);
    }
    if (flush) {
      out.flush();
    }
    if (bytes.size() > 1 << 20) {
      answer = new java.io.ByteArrayOutputStream(4_096); // a large result's buffer is not kept
    }
  }

  /** No worker outlives the gateway: exit when the parent process is gone. */
  private static void watchParent() {
    ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
    Thread t = new Thread(() -> {
      while (true) {
        try {
          TimeUnit.SECONDS.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
        if (parent == null || !parent.isAlive()) {
          Runtime.getRuntime().halt(4);
        }
      }
    }, "parent-watch");
    t.setDaemon(true);
    t.start();
  }

  static JsonArray array(Object... values) {
    JsonArray a = new JsonArray();
    for (Object v : values) {
      a.add(v);
    }
    return a;
  }
}
