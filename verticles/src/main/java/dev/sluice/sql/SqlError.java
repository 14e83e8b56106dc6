package dev.sluice.sql;

import dev.sluice.bus.JsonFields;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A failure an agent can act on. Travels over the event bus as a {@link ReplyException} whose code
 * is {@link ErrorType#code()} and whose message is the JSON body from {@link #toJson()}; becomes the
 * in-band MCP tool error body unchanged.
 */
public final class SqlError extends RuntimeException {

  private final ErrorType type;
  private final JsonObject details;

  public SqlError(ErrorType type, String message) {
    this(type, message, new JsonObject());
  }

  /**
   * @param details extra fields merged into the error body, e.g. {@code sql_state}, {@code
   *     position}, {@code suggestions}, {@code retryAfterMs}, {@code rule}
   */
  public SqlError(ErrorType type, String message, JsonObject details) {
    super(message, null, false, false);
    this.type = type;
    this.details = details == null ? new JsonObject() : details;
  }

  public ErrorType type() {
    return type;
  }

  public JsonObject details() {
    return details;
  }

  public SqlError with(String key, Object value) {
    if (value != null) {
      details.put(key, value);
    }
    return this;
  }

  /** The structured body: {@code {error_type, message, hint, ...details}}. */
  public JsonObject toJson() {
    JsonObject body = new JsonObject().put("error_type", type.wireName()).put("message", getMessage());
    details.forEach(e -> body.put(e.getKey(), e.getValue()));
    if (!body.containsKey("hint")) {
      body.put("hint", type.hint());
    }
    return body;
  }

  public static SqlError fromJson(JsonObject body) {
    ErrorType type = ErrorType.fromWire(body.getString("error_type", "internal_error"));
    JsonObject details = JsonFields.copy(body);
    details.remove("error_type");
    details.remove("message");
    return new SqlError(type, body.getString("message", type.hint()), details);
  }

  /** Fails a bus request with this error, preserving the body. */
  public void failReply(Message<?> msg) {
    msg.fail(type.code(), toJson().encode());
  }

  /**
   * Recovers a structured error from any failure: a {@link SqlError}, a bus {@link ReplyException}
   * carrying one, a bus timeout or missing consumer, or an unexpected exception (internal_error,
   * never a stack trace).
   */
  public static SqlError from(Throwable t) {
    if (t instanceof SqlError e) {
      return e;
    }
    if (t instanceof ReplyException re) {
      switch (re.failureType()) {
        case TIMEOUT:
          return new SqlError(ErrorType.TIMEOUT, SqlExecutorVerticle.GAVE_UP);
        case NO_HANDLERS:
          return new SqlError(ErrorType.INTERNAL_ERROR, "no executor is registered for this request");
        default:
          String msg = re.getMessage();
          if (msg != null && msg.startsWith("{")) {
            try {
              return fromJson(new JsonObject(msg));
            } catch (DecodeException ignored) {
              // fall through: a plain-text failure
            }
          }
          return new SqlError(ErrorType.fromCode(re.failureCode()), String.valueOf(msg));
      }
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return new SqlError(ErrorType.INTERNAL_ERROR, m);
  }

  /** Convenience for suggestion lists: {@code [{"correction": ..., "reason": ...}]}. */
  public static JsonArray suggestions(Iterable<String> corrections, String reason) {
    JsonArray out = new JsonArray();
    for (String c : corrections) {
      out.add(new JsonObject().put("correction", c).put("reason", reason));
    }
    return out;
  }
}
