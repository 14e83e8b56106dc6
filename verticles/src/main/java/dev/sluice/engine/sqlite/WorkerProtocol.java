package dev.sluice.engine.sqlite;

import io.vertx.core.json.JsonObject;

/**
 * The line protocol between the gateway and a SQLite worker process. Requests: {@code {id, sql,
 * maxRows, mode: "query"|"explain"}}. Answers: {@code {type:"ready", version}} once at start (or
 * {@code {type:"fatal", message}} and exit), then per job any number of {@code {id,
 * type:"progress", rows}} and one {@code {id, type:"result", ...}} or {@code {id, type:"error",
 * error_type, message, ...}}. An answer with {@code retiring: true} is the worker's last: it exits
 * right after, so the pool must not hand it another job.
 */
final class WorkerProtocol {

  /** A progress line every this many rows read. */
  static final int PROGRESS_EVERY_ROWS = 1_000;
  /** Flag of a worker's last answer before it exits. */
  static final String RETIRING = "retiring";

  private WorkerProtocol() {}

  static JsonObject fatal(String message) {
    return new JsonObject().put("type", "fatal").put("message", message);
  }

  static JsonObject error(String id, String errorType, String message) {
    return new JsonObject().put("id", id).put("type", "error").put("error_type", errorType).put("message", message);
  }

  /** Marks {@code answer} as the last one before the worker exits. */
  static JsonObject retiring(JsonObject answer) {
    return answer.put(RETIRING, true);
  }

  static JsonObject progress(String id, int rows) {
    return new JsonObject().put("id", id).put("type", "progress").put("rows", rows);
  }
}
