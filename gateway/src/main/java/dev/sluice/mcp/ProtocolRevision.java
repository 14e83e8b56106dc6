package dev.sluice.mcp;

import java.util.List;

/**
 * The MCP revisions this server speaks, newest first, and the per-revision rules that differ.
 *
 * <p>Two eras share the endpoints. The legacy revisions (2025-03-26 … 2025-11-25) open a session
 * with {@code initialize} and are negotiated there; the modern revision 2026-07-28 has no session:
 * every request names its revision in {@code _meta} and is answered on its own.
 */
public final class ProtocolRevision {

  /** The stateless revision: per-request {@code _meta}, server/discover, no session. */
  public static final String V2026_07_28 = "2026-07-28";
  public static final String V2025_11_25 = "2025-11-25";
  public static final String V2025_06_18 = "2025-06-18";
  public static final String V2025_03_26 = "2025-03-26";

  /** The session (initialize) revisions; {@code initialize} negotiates among these. */
  public static final List<String> SUPPORTED = List.of(V2025_11_25, V2025_06_18, V2025_03_26);

  /**
   * The revisions served per request, without a session: what server/discover offers and what an
   * UnsupportedProtocolVersionError lists. Only these may be named in a request's {@code _meta}.
   */
  public static final List<String> MODERN = List.of(V2026_07_28);

  /** Every revision a request may name in its MCP-Protocol-Version header. */
  public static final List<String> ALL = List.of(V2026_07_28, V2025_11_25, V2025_06_18, V2025_03_26);

  /** The newest session revision: what initialize answers a client asking for one we lack. */
  public static final String LATEST = V2025_11_25;

  /**
   * Transport spec: a request without MCP-Protocol-Version is assumed to be 2025-03-26 when the
   * server has no other way to tell.
   */
  public static final String ASSUMED_WHEN_ABSENT = V2025_03_26;

  private ProtocolRevision() {}

  /** A session revision ({@code initialize} can agree on it). */
  public static boolean supported(String v) {
    return v != null && SUPPORTED.contains(v);
  }

  /** A revision served statelessly, per request. */
  public static boolean modern(String v) {
    return v != null && MODERN.contains(v);
  }

  /** Any revision of either era (the MCP-Protocol-Version header may name it). */
  public static boolean known(String v) {
    return v != null && ALL.contains(v);
  }

  /** Lifecycle spec: answer with the client's revision if we support it, else our latest. */
  public static String negotiate(String requested) {
    return supported(requested) ? requested : LATEST;
  }

  /** JSON-RPC batching exists only in 2025-03-26; later revisions removed it. */
  public static boolean batchesAllowed(String v) {
    return V2025_03_26.equals(v);
  }

  /** Priming events and server-closed streams (SSE polling) arrived in 2025-11-25. */
  public static boolean ssePriming(String v) {
    return V2025_11_25.equals(v);
  }

  /** structuredContent / outputSchema arrived in 2025-06-18. */
  public static boolean structuredOutput(String v) {
    return !V2025_03_26.equals(v);
  }
}
