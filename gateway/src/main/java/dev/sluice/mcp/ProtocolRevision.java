package dev.sluice.mcp;

import java.util.List;

/** The MCP revisions this server speaks, newest first, and the per-revision rules that differ. */
public final class ProtocolRevision {

  public static final String V2025_11_25 = "2025-11-25";
  public static final String V2025_06_18 = "2025-06-18";
  public static final String V2025_03_26 = "2025-03-26";

  public static final List<String> SUPPORTED = List.of(V2025_11_25, V2025_06_18, V2025_03_26);

  public static final String LATEST = V2025_11_25;

  /**
   * Transport spec: a request without MCP-Protocol-Version is assumed to be 2025-03-26 when the
   * server has no other way to tell.
   */
  public static final String ASSUMED_WHEN_ABSENT = V2025_03_26;

  private ProtocolRevision() {}

  public static boolean supported(String v) {
    return v != null && SUPPORTED.contains(v);
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
