package dev.sluice.http;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.JsonRpc;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.access.Principals;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every HTTP-level rule of the Streamable HTTP transport and of our security model, in one place.
 * Each check returns null when the request passes, or the {@link Rejection} to send.
 */
public final class TransportRules {

  /** An HTTP refusal: status, and a message for the JSON-RPC error body. */
  public record Rejection(int status, String message) {}

  private final Set<String> allowedHosts = new HashSet<>();
  private final Set<String> allowedOrigins = new HashSet<>();
  private final Principals principals;
  private final int port;

  public TransportRules(ServerConfig server, Principals principals) {
    this.principals = principals;
    allowedHosts.addAll(List.of("localhost", "127.0.0.1", "::1"));
    for (String h : server.allowedHosts()) {
      allowedHosts.add(normalizeHost(h));
    }
    if (!isLoopbackLiteral(server.host())) {
      allowedHosts.add(normalizeHost(server.host()));
    }
    for (String o : server.allowedOrigins()) {
      allowedOrigins.add(o.toLowerCase(Locale.ROOT).replaceAll("/+$", ""));
    }
    port = server.port();
  }

  /**
   * DNS-rebinding defence (transport spec, security warning): the Host header must name this
   * server. Answered 421 Misdirected Request, as the MCP Java SDK does.
   */
  public Rejection host(HttpServerRequest req) {
    // authority() covers both the HTTP/1.1 Host header and HTTP/2's :authority
    io.vertx.core.net.HostAndPort authority = req.authority();
    String host = authority == null ? null : authority.host();
    if (host == null || !allowedHosts.contains(normalizeHost(host))) {
      return new Rejection(421, "Host header '" + host + "' is not allowed; allowed: " + allowedHosts);
    }
    return null;
  }

  /**
   * Transport spec: servers MUST validate Origin. Requests without Origin (non-browser clients)
   * pass, and so does our own origin (a page this very host:port served); any other browser
   * origin must be configured explicitly. 403 Forbidden.
   */
  public Rejection origin(HttpServerRequest req) {
    String origin = req.headers().get("Origin");
    if (origin == null || allowedOrigins.contains(origin.toLowerCase(Locale.ROOT)) || sameOrigin(origin)) {
      return null;
    }
    return new Rejection(403, "Origin '" + origin + "' is not allowed");
  }

  private boolean sameOrigin(String origin) {
    try {
      URI u = new URI(origin);
      if (u.getHost() == null || !"http".equalsIgnoreCase(u.getScheme())) {
        return false;
      }
      int p = u.getPort() == -1 ? 80 : u.getPort();
      return p == port && allowedHosts.contains(normalizeHost(u.getHost()));
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  /**
   * Bearer token on every /mcp method when any is configured (server.token or principals); the
   * digest comparison is constant-time. 401.
   */
  public Rejection token(HttpServerRequest req) {
    Principals.Authentication a = principals.authenticate(req.headers().get("Authorization"));
    return a.ok() ? null : new Rejection(a.status(), a.reason());
  }

  /** The principal the request's token names (call after {@link #token} passed). */
  public String principal(HttpServerRequest req) {
    return principals.authenticate(req.headers().get("Authorization")).principal();
  }

  /** Transport spec: a POST's Accept must list both application/json and text/event-stream. */
  public static Rejection postAccept(HttpServerRequest req) {
    String accept = req.headers().get("Accept");
    if (accept == null || accepts(accept, "application/json") && accepts(accept, "text/event-stream")) {
      return null;
    }
    return new Rejection(406,
        "Not Acceptable: the client must accept both application/json and text/event-stream");
  }

  /** A GET opens an SSE stream, so the client must accept text/event-stream. */
  public static Rejection getAccept(HttpServerRequest req) {
    String accept = req.headers().get("Accept");
    if (accept != null && accepts(accept, "text/event-stream")) {
      return null;
    }
    return new Rejection(406, "Not Acceptable: GET /mcp requires Accept: text/event-stream");
  }

  /** JSON-RPC over POST must be sent as application/json. 415. */
  public static Rejection contentType(HttpServerRequest req) {
    String ct = req.headers().get("Content-Type");
    if (ct != null && ct.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      return null;
    }
    return new Rejection(415, "Unsupported Media Type: Content-Type must be application/json");
  }

  /**
   * Transport spec (2025-06-18+): an invalid or unsupported MCP-Protocol-Version is answered 400.
   * An absent header is allowed (the session's negotiated revision applies).
   */
  public static Rejection protocolVersion(HttpServerRequest req) {
    String v = req.headers().get("MCP-Protocol-Version");
    if (v == null || ProtocolRevision.known(v)) {
      return null;
    }
    return new Rejection(400, "Bad Request: unsupported MCP-Protocol-Version '" + v
        + "'; supported: " + ProtocolRevision.ALL);
  }

  // ---- 2026-07-28: request metadata headers (streamable-http, "Request Metadata") -------------

  /**
   * Every POST carries MCP-Protocol-Version, and it must equal the revision the body's
   * {@code _meta} names. -32020 (HeaderMismatch), 400.
   */
  public static JsonObject protocolVersionMatches(HttpServerRequest req, Object id, String bodyVersion) {
    String v = req.headers().get("MCP-Protocol-Version");
    if (v == null) {
      return mismatch(id, "the required MCP-Protocol-Version header is missing (the body names " + bodyVersion + ")");
    }
    return v.equals(bodyVersion) ? null : mismatch(id, "MCP-Protocol-Version header value '" + v
        + "' does not match body value '" + bodyVersion + "'");
  }

  /** Mcp-Method mirrors the body's method on every request. -32020, 400. */
  public static JsonObject methodMatches(HttpServerRequest req, Object id, String bodyMethod) {
    String v = req.headers().get("Mcp-Method");
    if (v == null) {
      return mismatch(id, "the required Mcp-Method header is missing (the body names " + bodyMethod + ")");
    }
    return v.equals(bodyMethod) ? null : mismatch(id, "Mcp-Method header value '" + v
        + "' does not match body value '" + bodyMethod + "'");
  }

  /**
   * Mcp-Name mirrors params.name (tools/call, prompts/get), params.uri (resources/read) or, for
   * the Tasks extension, params.taskId; a value outside plain ASCII comes Base64-encoded as
   * {@code =?base64?...?=} and is decoded before the comparison. -32020, 400.
   */
  public static JsonObject nameMatches(HttpServerRequest req, Object id, String method, JsonObject params) {
    String field = switch (method) {
      case "tools/call", "prompts/get" -> "name";
      case "resources/read" -> "uri";
      case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
      default -> null;
    };
    if (field == null || !(params.getValue(field) instanceof String body)) {
      return null;
    }
    String v = req.headers().get("Mcp-Name");
    if (v == null) {
      return mismatch(id, "the required Mcp-Name header is missing (the body's params." + field + " is '" + body
          + "')");
    }
    String decoded = decodeHeaderValue(v);
    if (decoded == null) {
      return mismatch(id, "Mcp-Name header value is not valid =?base64?...?= encoding");
    }
    return decoded.equals(body) ? null : mismatch(id, "Mcp-Name header value '" + decoded
        + "' does not match body value '" + body + "'");
  }

  /** A header value as sent: plain, or the Base64 sentinel form; null when the sentinel is malformed. */
  static String decodeHeaderValue(String v) {
    if (v.startsWith("=?base64?") && v.endsWith("?=") && v.length() >= 11) {
      try {
        return new String(java.util.Base64.getDecoder().decode(v.substring(9, v.length() - 2)), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return v;
  }

  private static JsonObject mismatch(Object id, String message) {
    return JsonRpc.error(id, JsonRpc.HEADER_MISMATCH, "Header mismatch: " + message);
  }

  /** True when the request may get an SSE response. */
  public static boolean acceptsSse(HttpServerRequest req) {
    String accept = req.headers().get("Accept");
    return accept != null && accepts(accept, "text/event-stream");
  }

  /**
   * Whether one of the header's media ranges (parameters ignored) is {@code type}, its
   * {@code major/*} or {@code *}{@code /*}. Scans in place: it runs on every POST, and splitting
   * allocated a few hundred bytes a request.
   */
  static boolean accepts(String accept, String type) {
    int major = type.indexOf('/');
    int i = 0;
    int n = accept.length();
    while (i <= n) {
      int end = accept.indexOf(',', i);
      if (end < 0) {
        end = n;
      }
      int semi = accept.indexOf(';', i);
      int rangeEnd = semi >= 0 && semi < end ? semi : end;
      int from = i;
      while (from < rangeEnd && Character.isWhitespace(accept.charAt(from))) {
        from++;
      }
      int to = rangeEnd;
      while (to > from && Character.isWhitespace(accept.charAt(to - 1))) {
        to--;
      }
      int len = to - from;
      if (len == type.length() && accept.regionMatches(true, from, type, 0, len)
          || len == 3 && accept.startsWith("*/*", from)
          || len == major + 2 && accept.regionMatches(true, from, type, 0, major + 1) && accept.charAt(to - 1) == '*') {
        return true;
      }
      i = end + 1;
    }
    return false;
  }

  /** Lower-cases, strips the port and IPv6 brackets: {@code [::1]:7878} → {@code ::1}. */
  static String normalizeHost(String host) {
    String h = host.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end > 0 ? h.substring(1, end) : h;
    }
    int colon = h.indexOf(':');
    // a bare IPv6 literal has several colons and no port
    if (colon >= 0 && h.indexOf(':', colon + 1) < 0) {
      return h.substring(0, colon);
    }
    return h;
  }

  static boolean isLoopbackLiteral(String host) {
    String h = normalizeHost(host);
    return h.equals("localhost") || h.equals("::1") || h.startsWith("127.");
  }


  /** Checks that an origin string is a full origin; used by config validation and tests. */
  public static boolean isOrigin(String s) {
    try {
      URI u = new URI(s);
      return u.getScheme() != null && u.getHost() != null && (u.getPath() == null || u.getPath().isEmpty());
    } catch (Exception e) {
      return false;
    }
  }
}
