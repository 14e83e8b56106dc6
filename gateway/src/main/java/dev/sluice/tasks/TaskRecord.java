package dev.sluice.tasks;

import io.vertx.core.json.JsonObject;
import java.time.Instant;

/**
 * One task as the state store keeps it (area {@code tasks}, key = taskId), readable by every node
 * that shares the store. A {@code call} task is a tools/call that runs on {@code node}, which
 * rewrites the record while it runs ({@code heartbeatAt}, the latest progress message) and once
 * when it ends; an {@code ingest} task is a memory_ingest run, whose state is the run's own.
 *
 * @param status working, completed, failed or cancelled (the Tasks extension's; input_required is
 *     never used: a call asks its client before it becomes a task)
 * @param result the CallToolResult once completed (a tool error is a completed task with isError)
 * @param error the JSON-RPC error once failed
 */
public record TaskRecord(String taskId, String principal, String node, String tool, String kind, String runId,
    String status, String statusMessage, long createdAt, long lastUpdatedAt, long heartbeatAt, long ttlMs,
    long pollIntervalMs, JsonObject result, JsonObject error) {

  public static final String CALL = "call";
  public static final String INGEST = "ingest";

  public boolean terminal() {
    return !"working".equals(status);
  }

  public TaskRecord with(String newStatus, String message, JsonObject newResult, JsonObject newError, long now) {
    return new TaskRecord(taskId, principal, node, tool, kind, runId, newStatus, message, createdAt, now, now, ttlMs,
        pollIntervalMs, newResult, newError);
  }

  /** The same record, still running, seen alive at {@code now}. */
  public TaskRecord heartbeat(String message, long now) {
    return new TaskRecord(taskId, principal, node, tool, kind, runId, status, message, createdAt,
        message == null || message.equals(statusMessage) ? lastUpdatedAt : now, now, ttlMs, pollIntervalMs, result,
        error);
  }

  public boolean expired(long now) {
    return now > createdAt + ttlMs;
  }

  public JsonObject toJson() {
    return new JsonObject().put("taskId", taskId).put("principal", principal).put("node", node).put("tool", tool)
        .put("kind", kind).put("runId", runId).put("status", status).put("statusMessage", statusMessage)
        .put("createdAt", createdAt).put("lastUpdatedAt", lastUpdatedAt).put("heartbeatAt", heartbeatAt)
        .put("ttlMs", ttlMs).put("pollIntervalMs", pollIntervalMs).put("result", result).put("error", error);
  }

  public static TaskRecord fromJson(JsonObject j) {
    return new TaskRecord(j.getString("taskId"), j.getString("principal"), j.getString("node"), j.getString("tool"),
        j.getString("kind"), j.getString("runId"), j.getString("status"), j.getString("statusMessage"),
        j.getLong("createdAt"), j.getLong("lastUpdatedAt"), j.getLong("heartbeatAt"), j.getLong("ttlMs"),
        j.getLong("pollIntervalMs"), j.getJsonObject("result"), j.getJsonObject("error"));
  }

  /**
   * The Task as the extension shows it (a DetailedTask: the result of a completed task, the error
   * of a failed one), without the routing and ownership fields.
   */
  public JsonObject toWire() {
    JsonObject t = new JsonObject().put("taskId", taskId).put("status", status);
    if (statusMessage != null) {
      t.put("statusMessage", statusMessage);
    }
    t.put("createdAt", Instant.ofEpochMilli(createdAt).toString())
        .put("lastUpdatedAt", Instant.ofEpochMilli(lastUpdatedAt).toString())
        .put("ttlMs", ttlMs).put("pollIntervalMs", pollIntervalMs);
    if ("completed".equals(status) && result != null) {
      t.put("result", result);
    }
    if ("failed".equals(status) && error != null) {
      t.put("error", error);
    }
    return t;
  }
}
