package dev.sluice.audit;

import dev.sluice.bus.JsonFields;
import io.vertx.core.json.JsonObject;

/** The shapes of audit records. Tokens, headers and result rows are never part of them. */
public final class AuditRecords {

  /** SQL beyond this is cut (and marked) so one record stays one reasonable line. */
  static final int MAX_SQL_CHARS = 100_000;
  private AuditRecords() {}

  /**
   * One tools/call.
   *
   * @param fingerprint the analysed statement's fingerprint (literals as ?), or null
   * @param outcome ok, error or cancelled
   * @param rows rows returned, when the tool returns rows
   * @param bytes characters of the text rendering sent back (the structured copy is the same data)
   */
  public static JsonObject toolCall(String node, String principal, String sessionId, String callId,
      JsonObject clientInfo, String tool, JsonObject args, String fingerprint, String outcome, String errorType,
      Integer rows, Integer bytes, long durationMs, String queryId) {
    String sql = args == null ? null : args.getString("sql");
    JsonObject r = JsonFields.object(20)
        .put("type", "tools/call")
        .put("time", AuditTime.now())
        .put("node", node)
        .put("principal", principal)
        .put("sessionId", sessionId)
        .put("callId", callId)
        .put("client", clientInfo == null ? null : JsonFields.object(2).put("name", clientInfo.getString("name"))
            .put("version", clientInfo.getString("version")))
        .put("tool", tool)
        .put("connectionId", args == null ? null : args.getString("connectionId"));
    if (sql != null) {
      r.put("sql", sql.length() <= MAX_SQL_CHARS ? sql : sql.substring(0, MAX_SQL_CHARS) + "...[truncated]")
          .put("fingerprint", fingerprint);
    }
    if (args != null && args.getString("approvedQueryId") != null) {
      r.put("approvedQueryId", args.getString("approvedQueryId")).put("parameters", args.getValue("parameters"));
    }
    return r.put("outcome", outcome).put("errorType", errorType).put("rows", rows).put("bytes", bytes)
        .put("durationMs", durationMs).put("queryId", queryId);
  }

  /** Written before a gated write runs, so even a write whose outcome is lost is on record. */
  public static JsonObject writeIntent(String node, String principal, String sessionId, String connectionId,
      String sql, String fingerprint, String kind, String table, boolean confirmed) {
    return new JsonObject().put("type", "write_intent").put("time", AuditTime.now()).put("node", node)
        .put("principal", principal).put("sessionId", sessionId).put("tool", "sql_write")
        .put("connectionId", connectionId).put("sql", sql).put("fingerprint", fingerprint)
        .put("kind", kind).put("table", table).put("confirmedDestructive", confirmed);
  }

  /** An HTTP request refused before it reached a session (bad or missing token, Host, Origin). */
  public static JsonObject refused(String node, String method, String path, String remote, int status,
      String reason) {
    return new JsonObject().put("type", "http_refused").put("time", AuditTime.now()).put("node", node)
        .put("method", method).put("path", path).put("remote", remote).put("status", status)
        .put("reason", reason);
  }
}
