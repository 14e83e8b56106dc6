package dev.sluice.tasks;

import dev.sluice.ingest.IngestBus;
import dev.sluice.mcp.RunningCall;
import dev.sluice.mcp.ToolInvocation;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.sql.SqlError;
import dev.sluice.state.StateStore;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Tasks extension ({@code io.modelcontextprotocol/tasks}) for long work: a tools/call of
 * sql_execution or sql_compare that has not finished after {@link #INLINE_MS} becomes a task that
 * runs on where it started, and memory_ingest is always one (its run already lives in the store).
 * A task's state is a {@link TaskRecord} in the state store, so tasks/get answers on any node that
 * shares the store; tasks/cancel on another node reaches the owner over the cluster bus
 * ({@link #cancelAddress}) and the engine stops the query there.
 *
 * <p>One instance per node, used from every event loop; a running task's writes happen on its
 * call's own context, in order, so its final record is never overwritten by a late heartbeat.
 */
public final class Tasks {

  private static final Logger LOG = LoggerFactory.getLogger(Tasks.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The state store's area for task records. */
  public static final String AREA = "tasks";
  /** Tools that may run as tasks: the long ones. The rest answer inline, whatever the client declares. */
  public static final Set<String> TASK_TOOLS = Set.of("sql_execution", "sql_compare", "memory_ingest");
  /** A task-capable call still running after this long becomes a task; a quicker one answers inline. */
  public static final long INLINE_MS = 2_000;
  /** How long a task stays answerable after its creation (the extension's ttlMs). */
  public static final long TTL_MS = 3_600_000;
  /** Suggested polling interval. */
  public static final long POLL_INTERVAL_MS = 1_000;
  /** A running task's owner rewrites its record this often (with the latest progress message)... */
  static final long HEARTBEAT_MS = 5_000;
  /** ...and a record not rewritten for this long belongs to a node that stopped: the task failed. */
  static final long STALE_MS = 30_000;
  private static final long SWEEP_MS = 300_000;

  /** A task not found, expired, or another principal's: -32602 for tasks/get, tasks/update, tasks/cancel. */
  public static final class NotFound extends RuntimeException {
    NotFound(String taskId) {
      super("Failed to retrieve task: no task " + taskId + " (unknown, expired, or not yours)");
    }
  }

  private record Running(RunningCall call, Context context) {}

  private final Vertx vertx;
  private final StateStore state;
  private final String nodeId;
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private MessageConsumer<JsonObject> cancelConsumer;
  private long sweepTimer = -1;

  public Tasks(Vertx vertx, StateStore state, String nodeId) {
    this.vertx = vertx;
    this.state = state;
    this.nodeId = nodeId;
  }

  /** Where tasks/cancel reaches the node running a task: {@code {taskId, principal}} → {@code {cancelled}}. */
  public static String cancelAddress(String node) {
    return "sluice.tasks." + node + ".cancel";
  }

  public Future<Void> start() {
    cancelConsumer = vertx.eventBus().consumer(cancelAddress(nodeId), msg -> {
      Running r = running.get(msg.body().getString("taskId", ""));
      if (r != null && r.call().principal().equals(msg.body().getString("principal"))) {
        r.context().runOnContext(v -> r.call().cancel());
        msg.reply(new JsonObject().put("cancelled", true));
      } else {
        msg.reply(new JsonObject().put("cancelled", false));
      }
    });
    sweepTimer = vertx.setPeriodic(SWEEP_MS, t -> sweep());
    return cancelConsumer.completion();
  }

  public Future<Void> stop() {
    vertx.cancelTimer(sweepTimer);
    return cancelConsumer == null ? Future.succeededFuture() : cancelConsumer.unregister();
  }

  public static boolean taskable(String tool) {
    return TASK_TOOLS.contains(tool);
  }

  /**
   * Makes a running call a task: the record is in the store before this completes (so a tasks/get
   * anywhere finds it), then the call runs on; its outcome is written when it ends. Call on the
   * call's own context.
   *
   * @return the task as created (status working), for the CreateTaskResult
   */
  public Future<TaskRecord> adopt(RunningCall call, String tool, Future<ToolInvocation.Outcome> outcome,
      boolean structured) {
    Context context = Vertx.currentContext();
    long now = System.currentTimeMillis();
    TaskRecord created = new TaskRecord(newTaskId(), call.principal(), nodeId, tool, TaskRecord.CALL, null, "working",
        call.lastProgressMessage(), now, now, now, TTL_MS, POLL_INTERVAL_MS, null, null);
    running.put(created.taskId(), new Running(call, context));
    return write(created).map(v -> {
      long heartbeat = vertx.setPeriodic(HEARTBEAT_MS, t -> beat(created.taskId(), call));
      outcome.onComplete(ar -> {
        vertx.cancelTimer(heartbeat);
        finish(created, ar.succeeded() ? ar.result() : null, structured, call.cancelledBy());
      });
      return created;
    }).onFailure(err -> running.remove(created.taskId()));
  }

  /** A memory_ingest run as a task: its state stays the run's, read through the ingest bus. */
  public Future<TaskRecord> ingest(String principal, String runId) {
    long now = System.currentTimeMillis();
    TaskRecord created = new TaskRecord(newTaskId(), principal, nodeId, "memory_ingest", TaskRecord.INGEST, runId,
        "working", "run " + runId + " queued", now, now, now, TTL_MS, POLL_INTERVAL_MS, null, null);
    return write(created).map(v -> created);
  }

  /** tasks/get: the task as the extension shows it; fails with {@link NotFound}. */
  public Future<JsonObject> get(String taskId, String principal) {
    return load(taskId, principal).compose(r -> {
      if (TaskRecord.INGEST.equals(r.kind())) {
        return ingestView(r);
      }
      long now = System.currentTimeMillis();
      Running local = running.get(taskId);
      if (!r.terminal() && local != null) {
        return Future.succeededFuture(r.heartbeat(local.call().lastProgressMessage(), now).toWire());
      }
      if (!r.terminal() && now - r.heartbeatAt() > STALE_MS) {
        // its node stopped renewing it: the work is gone with the node
        return Future.succeededFuture(r.with("failed", "the node running this task (" + r.node()
            + ") stopped before it finished", null, new JsonObject().put("code", -32603)
            .put("message", "the node running this task stopped; run the call again"), now).toWire());
      }
      return Future.succeededFuture(r.toWire());
    });
  }

  /** tasks/update: there is never an outstanding input request, so answers are ignored; the task must exist. */
  public Future<Void> update(String taskId, String principal) {
    return load(taskId, principal).mapEmpty();
  }

  /**
   * tasks/cancel: acknowledged once the owner has the request (cancellation is cooperative). A call
   * task's engine query is cancelled on the node that runs it; a memory_ingest run cannot be
   * stopped and finishes.
   */
  public Future<Void> cancel(String taskId, String principal) {
    return load(taskId, principal).compose(r -> {
      if (r.terminal() || !TaskRecord.CALL.equals(r.kind())) {
        return Future.succeededFuture();
      }
      Running local = running.get(taskId);
      if (local != null) {
        local.context().runOnContext(v -> local.call().cancel());
        return Future.succeededFuture();
      }
      return vertx.eventBus().<JsonObject>request(cancelAddress(r.node()),
              new JsonObject().put("taskId", taskId).put("principal", principal))
          .<Void>mapEmpty()
          .recover(err -> {
            if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
              // its node is gone, and the work with it: say so
              return write(r.with("cancelled", "cancelled; the node running it had already stopped", null, null,
                  System.currentTimeMillis()));
            }
            return Future.failedFuture(err);
          });
    });
  }

  private void beat(String taskId, RunningCall call) {
    vertx.executeBlocking(() -> {
      Optional<StateStore.Entry> e = state.get(AREA, taskId);
      if (e.isPresent()) {
        TaskRecord r = TaskRecord.fromJson(new JsonObject(e.get().text()));
        if (!r.terminal()) {
          state.put(AREA, taskId, r.heartbeat(call.lastProgressMessage(), System.currentTimeMillis()).toJson().encode());
        }
      }
      return null;
    }, true).onFailure(err -> LOG.warn("task {}: heartbeat not written: {}", taskId, err.toString()));
  }

  /** @param cancelledBy the operator who cancelled the call from the console, or null */
  private void finish(TaskRecord created, ToolInvocation.Outcome outcome, boolean structured, String cancelledBy) {
    long now = System.currentTimeMillis();
    TaskRecord done;
    if (outcome == null) {
      done = created.with("failed", "the call failed inside the server", null,
          new JsonObject().put("code", -32603).put("message", "internal error"), now);
    } else if (outcome.cancelled()) {
      done = created.with("cancelled", cancelledBy == null ? "cancelled by the client"
          : "cancelled from the operator's console by " + cancelledBy, null, null, now);
    } else {
      JsonObject result = outcome.callResult(structured);
      String message = outcome.error() != null ? outcome.error().type().wireName() + ": " + outcome.error().getMessage()
          : created.tool() + " finished";
      done = created.with("completed", message, result, null, now);
    }
    write(done).onComplete(ar -> {
      running.remove(created.taskId());
      if (ar.failed()) {
        LOG.error("task {}: its outcome could not be stored: {}", created.taskId(), ar.cause().toString());
      }
    });
  }

  private Future<JsonObject> ingestView(TaskRecord r) {
    return vertx.eventBus().<JsonObject>request(IngestBus.STATUS, new JsonObject().put("runId", r.runId())
            .put("principal", r.principal()))
        .map(m -> {
          JsonObject run = m.body();
          String status = run.getString("status");
          long now = System.currentTimeMillis();
          return switch (status) {
            case "completed" -> r.with("completed", "run " + r.runId() + " completed",
                ToolResult.of(run, IngestText.of(run)).toCallResult(true), null, now)
                .toWire();
            case "failed" -> r.with("completed", "run " + r.runId() + " failed", IngestText.failed(run), null, now)
                .toWire();
            default -> r.with("working", "run " + r.runId() + " " + status, null, null, r.lastUpdatedAt()).toWire();
          };
        })
        .recover(err -> Future.failedFuture(SqlError.from(err)));
  }

  private Future<TaskRecord> load(String taskId, String principal) {
    if (taskId == null || !StateStore.validKey(taskId)) {
      return Future.failedFuture(new NotFound(String.valueOf(taskId)));
    }
    return vertx.executeBlocking(() -> state.get(AREA, taskId)).compose(e -> {
      TaskRecord r = e.map(x -> TaskRecord.fromJson(new JsonObject(x.text()))).orElse(null);
      // another principal's task is answered as unknown: its existence is not theirs to learn
      if (r == null || !r.principal().equals(principal) || r.expired(System.currentTimeMillis())) {
        return Future.failedFuture(new NotFound(taskId));
      }
      return Future.succeededFuture(r);
    });
  }

  private Future<Void> write(TaskRecord r) {
    return vertx.executeBlocking(() -> {
      state.put(AREA, r.taskId(), r.toJson().encode());
      return null;
    }, true).mapEmpty();
  }

  private void sweep() {
    vertx.executeBlocking(() -> {
      long now = System.currentTimeMillis();
      int removed = 0;
      for (StateStore.Entry e : state.all(AREA)) {
        TaskRecord r = TaskRecord.fromJson(new JsonObject(e.text()));
        if (r.expired(now) && !running.containsKey(r.taskId())) {
          state.remove(AREA, e.key());
          removed++;
        }
      }
      return removed;
    }).onSuccess(n -> {
      if (n > 0) {
        LOG.info("tasks: swept {} expired task(s)", n);
      }
    }).onFailure(err -> LOG.warn("tasks: sweep failed: {}", err.toString()));
  }

  /** 144 random bits, hex: unguessable, and a valid state key. */
  private static String newTaskId() {
    byte[] b = new byte[18];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The text of a memory_ingest run's outcome, as memory_ingest_status words it. */
  static final class IngestText {
    private IngestText() {}

    static String of(JsonObject run) {
      StringBuilder text = new StringBuilder("run ").append(run.getString("runId")).append(": ")
          .append(run.getString("status"));
      run.getJsonArray("pages", new JsonArray()).forEach(p -> text.append("; page ")
          .append(((JsonObject) p).getString("key")).append(" (").append(((JsonObject) p).getString("action"))
          .append(')'));
      return text.toString();
    }

    /** A failed run is the tool's failure (isError), not the protocol's: the task is completed. */
    static JsonObject failed(JsonObject run) {
      JsonObject error = run.getJsonObject("error", new JsonObject());
      SqlError e = new SqlError(dev.sluice.sql.ErrorType.fromWire(error.getString("type", "internal_error")),
          "memory_ingest run " + run.getString("runId") + " failed: " + error.getString("message", "unknown"));
      return ToolInvocation.errorResult(e.with("runId", run.getString("runId")));
    }
  }
}
