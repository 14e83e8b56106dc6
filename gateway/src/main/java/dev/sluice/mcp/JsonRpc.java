package dev.sluice.mcp;

import dev.sluice.bus.JsonFields;
import io.vertx.core.json.JsonObject;

/** JSON-RPC 2.0 message building and classification, with the exact error codes of the spec. */
public final class JsonRpc {

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;
  /** 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
  public static final int HEADER_MISMATCH = -32020;
  /** 2026-07-28: the request needs a client capability its {@code _meta} did not declare. */
  public static final int MISSING_CLIENT_CAPABILITY = -32021;
  /** 2026-07-28: the request names a revision this server does not serve statelessly. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private JsonRpc() {}

  public static JsonObject result(Object id, JsonObject result) {
    return JsonFields.object(3).put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  public static JsonObject error(Object id, int code, String message) {
    return error(id, code, message, null);
  }

  public static JsonObject error(Object id, int code, String message, Object data) {
    JsonObject err = new JsonObject().put("code", code).put("message", message);
    if (data != null) {
      err.put("data", data);
    }
    // JSON-RPC requires "id": null when the request id could not be read
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", err);
  }

  public static JsonObject notification(String method, JsonObject params) {
    JsonObject n = JsonFields.object(3).put("jsonrpc", "2.0").put("method", method);
    if (params != null) {
      n.put("params", params);
    }
    return n;
  }

  /** What a well-formed message is; {@link Kind#INVALID} for anything else. */
  public enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    INVALID
  }

  public static Kind kind(Object o) {
    if (!(o instanceof JsonObject m) || !"2.0".equals(m.getValue("jsonrpc"))) {
      return Kind.INVALID;
    }
    boolean hasId = m.containsKey("id");
    Object id = m.getValue("id");
    if (m.containsKey("method")) {
      if (!(m.getValue("method") instanceof String)) {
        return Kind.INVALID;
      }
      if (m.containsKey("params") && !(m.getValue("params") instanceof JsonObject)
          && !(m.getValue("params") instanceof io.vertx.core.json.JsonArray)) {
        return Kind.INVALID;
      }
      if (!hasId) {
        return Kind.NOTIFICATION;
      }
      // MCP forbids null ids on requests
      return id instanceof String || id instanceof Number ? Kind.REQUEST : Kind.INVALID;
    }
    if (hasId && (m.containsKey("result") || m.containsKey("error"))) {
      return Kind.RESPONSE;
    }
    return Kind.INVALID;
  }

  /** The id of a message if it is a readable request id, else null. */
  public static Object idOf(Object o) {
    if (o instanceof JsonObject m) {
      Object id = m.getValue("id");
      return id instanceof String || id instanceof Number ? id : null;
    }
    return null;
  }
}
