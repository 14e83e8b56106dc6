package dev.sluice.sql.pool;

/**
 * Who a waiting call belongs to and what it runs, as the wait queue orders it.
 *
 * @param principal the configured principal of the calling session ({@code default} without principals)
 * @param session the MCP session id; calls of one session are served in order
 * @param costKey the statement's fingerprint with its mode, keying the history of its elapsed time
 */
public record Caller(String principal, String session, String costKey) {

  /** Calls that came without a caller (scripts over the bus, internal look-ups) share one queue. */
  public static final String ANONYMOUS = "-";

  public Caller {
    principal = principal == null || principal.isBlank() ? ANONYMOUS : principal;
    session = session == null || session.isBlank() ? ANONYMOUS : session;
    costKey = costKey == null ? "" : costKey;
  }
}
