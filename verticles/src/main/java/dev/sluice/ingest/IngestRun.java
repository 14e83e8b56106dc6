package dev.sluice.ingest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One run's state as persisted ({@code <stateDir>/ingest/runs/<runId>.json}); its content lives
 * beside it in {@code <runId>.md}. Status moves queued → running → completed | failed.
 */
record IngestRun(
    String runId,
    String status,
    String connectionId,
    String source,
    String createdAt,
    String startedAt,
    String finishedAt,
    JsonArray pages,
    JsonArray warnings,
    JsonObject error,
    String sessionId,
    String notifyAddress,
    String principal) {

  /** @param principal who started the run; null for runs not started by an agent (the CLI) */
  static IngestRun queued(String runId, String connectionId, String source, String createdAt, String sessionId,
      String notifyAddress, String principal) {
    return new IngestRun(runId, "queued", connectionId, source, createdAt, null, null, new JsonArray(),
        new JsonArray(), null, sessionId, notifyAddress, principal);
  }

  IngestRun running(String at) {
    return new IngestRun(runId, "running", connectionId, source, createdAt, at, null, pages, warnings, null,
        sessionId, notifyAddress, principal);
  }

  /** Back in the queue after a restart (it may have been running when the process died). */
  IngestRun queuedAgain() {
    return new IngestRun(runId, "queued", connectionId, source, createdAt, null, null, new JsonArray(),
        new JsonArray(), null, sessionId, notifyAddress, principal);
  }

  IngestRun completed(String at, JsonArray pagesWritten, JsonArray warningsSeen) {
    return new IngestRun(runId, "completed", connectionId, source, createdAt, startedAt, at, pagesWritten,
        warningsSeen, null, sessionId, notifyAddress, principal);
  }

  IngestRun failed(String at, String type, String message, JsonArray warningsSeen) {
    return new IngestRun(runId, "failed", connectionId, source, createdAt, startedAt, at, new JsonArray(),
        warningsSeen, new JsonObject().put("type", type).put("message", message), sessionId, notifyAddress, principal);
  }

  boolean finished() {
    return "completed".equals(status) || "failed".equals(status);
  }

  JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("status", status).put("connectionId", connectionId)
        .put("source", source).put("createdAt", createdAt).put("startedAt", startedAt)
        .put("finishedAt", finishedAt).put("pages", pages).put("warnings", warnings).put("error", error)
        .put("sessionId", sessionId).put("notifyAddress", notifyAddress).put("principal", principal);
  }

  /**
   * A run started by an agent is visible to its principal only; a CLI run (no principal) to all.
   * A null requester is the gateway itself (the CLI, tests), which sees every run.
   */
  boolean visibleTo(String requester) {
    return principal == null || requester == null || principal.equals(requester);
  }

  /** What memory_ingest_status shows (no routing or ownership details). */
  JsonObject toStatus() {
    JsonObject j = toJson();
    j.remove("sessionId");
    j.remove("notifyAddress");
    j.remove("principal");
    return j;
  }

  static IngestRun fromJson(JsonObject j) {
    return new IngestRun(j.getString("runId"), j.getString("status"), j.getString("connectionId"),
        j.getString("source"), j.getString("createdAt"), j.getString("startedAt"), j.getString("finishedAt"),
        j.getJsonArray("pages", new JsonArray()), j.getJsonArray("warnings", new JsonArray()),
        j.getJsonObject("error"), j.getString("sessionId"), j.getString("notifyAddress"), j.getString("principal"));
  }
}
