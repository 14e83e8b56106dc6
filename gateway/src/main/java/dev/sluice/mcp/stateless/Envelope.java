package dev.sluice.mcp.stateless;

import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.ProtocolRevision;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What a 2026-07-28 request says about itself in {@code params._meta}: its revision, its client,
 * the client's capabilities for this request, and the log level it wants (basic/index, "Per-request
 * protocol fields"). Nothing about a client is remembered between requests; everything comes from
 * here, except the principal, which comes from the bearer token.
 *
 * @param clientInfo may be null (clients SHOULD send it, servers must not require it)
 * @param logLevel null: no notifications/message for this request (logging spec, 2026-07-28)
 */
public record Envelope(String protocolVersion, JsonObject clientInfo, JsonObject clientCapabilities, String logLevel,
    Object progressToken) {

  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
  /** The Tasks extension's identifier (its capability key and its reserved names). */
  public static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  /** RFC 5424 severities, least severe first. */
  static final List<String> LOG_LEVELS =
      List.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  /** A parsed envelope, or the JSON-RPC error (and HTTP status) that refuses the request. */
  public record Parsed(Envelope envelope, JsonObject error, int httpStatus) {
    public boolean ok() {
      return envelope != null;
    }
  }

  /**
   * True when a message carries a modern per-request envelope: the revision key in its
   * {@code _meta}. Such a request is served statelessly (versioning, "A dual-era server selects its
   * behavior from how the client opens").
   */
  public static boolean claimed(Object message) {
    return message instanceof JsonObject m && m.getValue("params") instanceof JsonObject p
        && p.getValue("_meta") instanceof JsonObject meta && meta.containsKey(PROTOCOL_VERSION);
  }

  /** The revision a message's envelope names, or null. */
  public static String claimedVersion(JsonObject message) {
    return claimed(message) && message.getJsonObject("params").getJsonObject("_meta").getValue(PROTOCOL_VERSION)
        instanceof String v ? v : null;
  }

  /**
   * Reads and checks a request's envelope: a revision we do not serve statelessly is -32022 with
   * the ones we do (the client retries with one of them); a missing required field or a malformed
   * one is -32602 (400 on HTTP).
   */
  public static Parsed parse(JsonObject message) {
    Object id = JsonRpc.idOf(message);
    JsonObject params = message.getValue("params") instanceof JsonObject p ? p : new JsonObject();
    JsonObject meta = params.getValue("_meta") instanceof JsonObject m ? m : new JsonObject();
    Object version = meta.getValue(PROTOCOL_VERSION);
    if (version == null) {
      return invalid(id, "_meta." + PROTOCOL_VERSION + " is required on every request of revision "
          + ProtocolRevision.V2026_07_28);
    }
    if (!(version instanceof String v) || !ProtocolRevision.modern(v)) {
      return new Parsed(null, JsonRpc.error(id, JsonRpc.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
          new JsonObject().put("supported", new JsonArray(ProtocolRevision.MODERN))
              .put("requested", String.valueOf(version))), 400);
    }
    Object caps = meta.getValue(CLIENT_CAPABILITIES);
    if (caps == null) {
      return invalid(id, "_meta." + CLIENT_CAPABILITIES + " is required on every request (an empty object "
          + "declares no optional capability)");
    }
    if (!(caps instanceof JsonObject capabilities)) {
      return invalid(id, "_meta." + CLIENT_CAPABILITIES + " must be an object");
    }
    Object info = meta.getValue(CLIENT_INFO);
    if (info != null && !(info instanceof JsonObject)) {
      return invalid(id, "_meta." + CLIENT_INFO + " must be an object {name, version}");
    }
    Object level = meta.getValue(LOG_LEVEL);
    if (level != null && !LOG_LEVELS.contains(level)) {
      return invalid(id, "_meta." + LOG_LEVEL + " must be one of " + LOG_LEVELS + ", got " + level);
    }
    return new Parsed(new Envelope(v, (JsonObject) info, capabilities, (String) level, meta.getValue("progressToken")),
        null, 200);
  }

  private static Parsed invalid(Object id, String message) {
    return new Parsed(null, JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Invalid params: " + message), 400);
  }

  /** Whether the client declared an extension (by identifier) for this request. */
  public boolean hasExtension(String id) {
    return clientCapabilities.getValue("extensions") instanceof JsonObject e && e.getValue(id) instanceof JsonObject;
  }

  /** Whether the client declared a capability ({@code elicitation}, {@code sampling}, {@code roots}). */
  public boolean has(String capability) {
    return clientCapabilities.getValue(capability) instanceof JsonObject;
  }

  /** Whether a notifications/message at {@code level} was asked for by this request. */
  public boolean logs(String level) {
    return logLevel != null && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(logLevel);
  }
}
