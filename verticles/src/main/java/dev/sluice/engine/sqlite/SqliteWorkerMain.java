package dev.sluice.engine.sqlite;

import dev.sluice.bus.JsonBytes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.FileDescriptor;
import java.io.FileInputStream;
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
    WorkerOutput out = new WorkerOutput(new java.io.FileOutputStream(FileDescriptor.out));
    watchParent();
    boolean writer = args.length == 2 && WRITE_FLAG.equals(args[1]);
    if (args.length != 1 && !writer || !new java.io.File(args[0]).canRead()) {
      out.now(WorkerProtocol.fatal("cannot read SQLite database " + (args.length == 1 ? args[0] : "(none given)")));
      System.exit(2);
    }
    Connection conn;
    try {
      conn = writer ? openForWrites(args[0]) : open(args[0]);
    } catch (Exception e) {
      out.now(WorkerProtocol.fatal("cannot open SQLite database " + args[0] + ": " + e.getMessage()));
      System.exit(2);
      return;
    }
    String version;
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      version = rs.getString(1);
    }
    out.now(new JsonObject().put("type", "ready").put("version", version));
    WorkerQuery query = new WorkerQuery(conn, out::now);
    // stdin unbuffered: the job lines are split and parsed from their bytes (JsonLines), with no
    // String per job and no FIONREAD after each read, as System.in's buffer would ask
    JsonLines.read(new FileInputStream(FileDescriptor.in), (line, length) -> {
      if (!(JsonBytes.decode(line, 0, length) instanceof JsonObject job)) {
        throw new io.vertx.core.json.DecodeException("a job line is not a JSON object");
      }
      out.jobStarts();
      try {
        out.answer(query.run(job));
      } catch (OutOfMemoryError oom) {
        // the heap cap did its job; report, then exit so the pool starts a clean worker
        out.now(WorkerProtocol.retiring(WorkerProtocol.error(job.getString("id"), "query_error",
            "the query needed more memory than the SQLite worker's heap allows; aggregate or filter more")));
        System.exit(3);
      } finally {
        out.jobEnded();
      }
    }, out::drained);
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
