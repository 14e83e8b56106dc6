package dev.sluice.engine.sqlite;

import dev.sluice.bus.JsonBytes;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The gateway's handle on one worker process. Its stdout is read on a dedicated thread (never an
 * event loop) and every line is handed to the owning verticle's context; stderr is drained so the
 * child can never block on a full pipe. All other methods run on the owning context.
 */
final class SqliteWorker {

  /** Worker JVM heap: a query that needs more dies alone, never the gateway. */
  static final String DEFAULT_HEAP = "256m";

  private final Process process;
  private final OutputStream stdin;
  /** The job line being written (jobs are sent from the pool's context, one at a time). */
  private java.io.ByteArrayOutputStream jobLine = new java.io.ByteArrayOutputStream(1024);
  private final Promise<Integer> exited = Promise.promise();
  private Consumer<JsonObject> lineHandler = l -> { };
  private String serverVersion;
  /** Jobs handed to this process, for the operator's view (touched on the pool's context only). */
  private long jobs;
  /** System.nanoTime() of its last answer (the pool's context only): when a rider behind it could start. */
  long answeredAt;
  /** Bytes of the job lines it was sent and has not answered (the pool's context only). */
  int unansweredBytes;

  private SqliteWorker(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
  }

  /**
   * Starts a worker for {@code db} and completes once it reported ready (or fails with its fatal
   * message). Process creation blocks, so it runs on a worker thread.
   */
  static Future<SqliteWorker> start(Vertx vertx, Context ctx, Path db, String heap) {
    return start(vertx, ctx, db, heap, false);
  }

  /** @param writer a read-write worker for gated writes (the only one of its database file) */
  static Future<SqliteWorker> start(Vertx vertx, Context ctx, Path db, String heap, boolean writer) {
    return vertx.executeBlocking(() -> new SqliteWorker(new ProcessBuilder(command(db, heap, writer)).start()))
        .compose(w -> w.begin(ctx));
  }

  /** The worker process's command line. */
  static List<String> command(Path db, String heap, boolean writer) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    // First on the command line: /proc cmdline readers may cut a long classpath short
    cmd.add(SqliteWorkerMain.MARKER + db);
    cmd.add("-Xmx" + heap);
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Xshare:auto");
    cmd.addAll(JIT_SETTINGS);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SqliteWorkerMain.class.getName());
    cmd.add(db.toString());
    if (writer) {
      cmd.add(SqliteWorkerMain.WRITE_FLAG);
    }
    return cmd;
  }

  private Future<SqliteWorker> begin(Context ctx) {
    Promise<SqliteWorker> ready = Promise.promise();
    lineHandler = line -> {
      switch (line.getString("type", "")) {
        case "ready" -> {
          serverVersion = line.getString("version");
          ready.tryComplete(this);
        }
        case "fatal" -> ready.tryFail(line.getString("message"));
        default -> { }
      }
    };
    thread("sqlite-worker-out-" + pid(), () -> readLines(process.getInputStream(), ctx));
    thread("sqlite-worker-err-" + pid(), () -> drain(process.getErrorStream()));
    process.onExit().thenAccept(p -> ctx.runOnContext(v -> {
      exited.tryComplete(p.exitValue());
      ready.tryFail("SQLite worker exited with code " + p.exitValue() + " before it was ready");
    }));
    return ready.future();
  }

  long pid() {
    return process.pid();
  }

  void countJob() {
    jobs++;
  }

  long jobs() {
    return jobs;
  }

  String serverVersion() {
    return serverVersion;
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Completes with the exit code, on the owning context. */
  Future<Integer> onExit() {
    return exited.future();
  }

  void onLine(Consumer<JsonObject> handler) {
    this.lineHandler = handler;
  }

  /**
   * Sends one job line and returns its size. The write cannot block the event loop: a job goes to
   * an idle worker (blocked reading stdin), or as a rider to a busy one only while the lines it has
   * not answered stay far below the pipe's 64 KB ({@code SqliteWorkerPool}). A failure means the
   * process is gone, which the exit handler reports.
   */
  int send(JsonObject job) {
    // the streaming encoder into this worker's own buffer: encode() went through databind and a
    // String, then a copy to bytes, for every job
    jobLine.reset();
    JsonBytes.write(job, jobLine);
    jobLine.write('\n');
    int size = jobLine.size();
    try {
      jobLine.writeTo(stdin);
      stdin.flush();
    } catch (IOException e) {
      process.destroyForcibly();
    }
    if (size > 64 * 1024) {
      jobLine = new java.io.ByteArrayOutputStream(1024); // a huge SQL text does not stay allocated
    }
    return size;
  }

  /** SIGKILL: the only reliable way to stop a CPU-bound SQLite statement. */
  void kill() {
    process.destroyForcibly();
  }

  /** Answer lines, parsed straight from their bytes on this worker's reader thread ({@link JsonLines}). */
  private void readLines(InputStream in, Context ctx) {
    try (in) {
      JsonLines.read(in, (line, length) -> answer(line, length, ctx));
    } catch (IOException ignored) {
      // the process is gone; onExit reports it
    }
  }

  /** A line that is not a JSON object is skipped. */
  private void answer(byte[] line, int length, Context ctx) {
    Object parsed;
    try {
      parsed = JsonBytes.decode(line, 0, length);
    } catch (DecodeException e) {
      return;
    }
    if (parsed instanceof JsonObject answer) {
      ctx.runOnContext(v -> lineHandler.accept(answer));
    }
  }

  private static void drain(InputStream err) {
    byte[] buf = new byte[4096];
    try (err) {
      while (err.read(buf) >= 0) {
        // discarded: the worker writes nothing useful on stderr, but a full pipe would block it
      }
    } catch (IOException ignored) {
      // process gone
    }
  }

  private static void thread(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /**
   * The gateway's own JIT ceiling, if it has one: an operator who stops the gateway at C1 to save
   * start-up CPU on a small machine (or a test JVM doing so) wants the workers it starts alike.
   */
  private static final List<String> JIT_SETTINGS = java.lang.management.ManagementFactory.getRuntimeMXBean()
      .getInputArguments().stream().filter(a -> a.startsWith("-XX:TieredStopAtLevel=")).toList();

  private static String javaBinary() {
    return ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
