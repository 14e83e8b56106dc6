package dev.sluice.sql;

import dev.sluice.sql.analysis.AnalysedStatement;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;
import java.util.Locale;

/**
 * One execute request to a SQL executor. On the node-local bus it travels as this object, with the
 * statement's {@link AnalysedStatement} attached, so the executor reads the analysis the tool made
 * instead of parsing again; as JSON (tests, scripts) it carries the text only and the executor
 * analyses it itself.
 *
 * @param sql the statement as the agent (or the approved query's author) wrote it
 * @param analysis the analysis of {@code sql} made by the caller, or null
 * @param maxRows rows to return at most; null: the connection's default
 * @param timeoutMs a deadline below the connection's; null: the connection's
 * @param params an approved query's values for its {@code #{name}} placeholders
 * @param analyze for EXPLAIN: execute the statement to measure it
 * @param floatDigits for CHECKSUM: significant digits floats are compared at
 * @param progressAddress where to send progress, or null
 * @param principal the calling session's principal, or null; orders the connection's wait queue
 * @param sessionId the calling MCP session, or null
 */
public record SqlRequest(String connectionId, String queryId, Mode mode, String sql, AnalysedStatement analysis,
    Integer maxRows, Long timeoutMs, JsonObject params, boolean analyze, Integer floatDigits,
    String progressAddress, String principal, String sessionId) {

  /** What the executor does with the statement. */
  public enum Mode {
    /** Run it and return at most maxRows rows. */
    QUERY,
    /** Return the engine's plan for it. */
    EXPLAIN,
    /** Run it and hash its whole result (sql_compare). */
    CHECKSUM,
    /** A gated write (sql_write) in its own READ WRITE transaction. */
    WRITE;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Mode parse(String s) {
      if (s == null) {
        return QUERY;
      }
      for (Mode m : values()) {
        if (m.wireName().equals(s)) {
          return m;
        }
      }
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "mode must be one of query, explain, checksum, write; got \""
          + s + "\"");
    }
  }

  public static SqlRequest query(String connectionId, String sql, AnalysedStatement analysis, int maxRows) {
    return new SqlRequest(connectionId, null, Mode.QUERY, sql, analysis, maxRows, null, null, false, null, null,
        null, null);
  }

  public SqlRequest withMode(Mode m) {
    return new SqlRequest(connectionId, queryId, m, sql, analysis, maxRows, timeoutMs, params, analyze, floatDigits,
        progressAddress, principal, sessionId);
  }

  public SqlRequest withRouting(String connectionId, String queryId, String progressAddress) {
    return new SqlRequest(connectionId, queryId, mode, sql, analysis, maxRows, timeoutMs, params, analyze,
        floatDigits, progressAddress, principal, sessionId);
  }

  public SqlRequest withAnalysis(AnalysedStatement a) {
    return new SqlRequest(connectionId, queryId, mode, sql, a, maxRows, timeoutMs, params, analyze, floatDigits,
        progressAddress, principal, sessionId);
  }

  public SqlRequest withTimeout(Long ms) {
    return new SqlRequest(connectionId, queryId, mode, sql, analysis, maxRows, ms, params, analyze, floatDigits,
        progressAddress, principal, sessionId);
  }

  public SqlRequest withParams(JsonObject values) {
    return new SqlRequest(connectionId, queryId, mode, sql, analysis, maxRows, timeoutMs, values, analyze,
        floatDigits, progressAddress, principal, sessionId);
  }

  public SqlRequest withExplain(boolean analyzeIt) {
    return new SqlRequest(connectionId, queryId, Mode.EXPLAIN, sql, analysis, maxRows, timeoutMs, params, analyzeIt,
        floatDigits, progressAddress, principal, sessionId);
  }

  public SqlRequest withChecksum(int digits) {
    return new SqlRequest(connectionId, queryId, Mode.CHECKSUM, sql, analysis, maxRows, timeoutMs, params, analyze,
        digits, progressAddress, principal, sessionId);
  }

  /** The same request on behalf of a principal's session (the wait queue serves them fairly). */
  public SqlRequest withCaller(String principalName, String session) {
    return new SqlRequest(connectionId, queryId, mode, sql, analysis, maxRows, timeoutMs, params, analyze,
        floatDigits, progressAddress, principalName, session);
  }

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("connectionId", connectionId).put("queryId", queryId)
        .put("mode", mode.wireName()).put("sql", sql);
    if (maxRows != null) j.put("maxRows", maxRows);
    if (timeoutMs != null) j.put("timeoutMs", timeoutMs);
    if (params != null) j.put("params", params);
    if (analyze) j.put("analyze", true);
    if (floatDigits != null) j.put("floatDigits", floatDigits);
    if (progressAddress != null) j.put("progressAddress", progressAddress);
    if (principal != null) j.put("principal", principal);
    if (sessionId != null) j.put("sessionId", sessionId);
    return j;
  }

  public static SqlRequest fromJson(JsonObject j) {
    return new SqlRequest(j.getString("connectionId"), j.getString("queryId"), Mode.parse(j.getString("mode")),
        j.getString("sql"), null, j.getInteger("maxRows"), j.getLong("timeoutMs"), j.getJsonObject("params"),
        j.getBoolean("analyze", false), j.getInteger("floatDigits"), j.getString("progressAddress"),
        j.getString("principal"), j.getString("sessionId"));
  }

  /** Makes {@link SqlRequest} sendable on this Vert.x instance's bus; safe to call more than once. */
  public static void registerCodec(Vertx vertx) {
    synchronized (SqlRequest.class) {
      try {
        vertx.eventBus().registerDefaultCodec(SqlRequest.class, new Codec());
      } catch (IllegalStateException alreadyRegistered) {
        // another verticle of this Vert.x instance did it
      }
    }
  }

  /** Node-local: the object itself (analysis included). Over a cluster: its JSON, without analysis. */
  static final class Codec implements MessageCodec<SqlRequest, SqlRequest> {
    @Override
    public void encodeToWire(Buffer buffer, SqlRequest r) {
      Buffer json = r.toJson().toBuffer();
      buffer.appendInt(json.length()).appendBuffer(json);
    }

    @Override
    public SqlRequest decodeFromWire(int pos, Buffer buffer) {
      int len = buffer.getInt(pos);
      return fromJson(new JsonObject(buffer.getBuffer(pos + 4, pos + 4 + len)));
    }

    @Override
    public SqlRequest transform(SqlRequest r) {
      return r;
    }

    @Override
    public String name() {
      return "sluice-sql-request";
    }

    @Override
    public byte systemCodecID() {
      return -1;
    }
  }
}
