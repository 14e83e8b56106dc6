package dev.sluice.sql;

/**
 * The error categories an agent can act on. Every failed tool call carries exactly one of these as
 * {@code error_type}; the bus failure code of a failed SQL request is {@link #code()}.
 */
public enum ErrorType {
  SYNTAX_ERROR(1, "Fix the SQL syntax near the reported position and retry."),
  TABLE_NOT_FOUND(2, "Check the table name against the suggestions (schema-qualify it if needed) and retry."),
  COLUMN_NOT_FOUND(3, "Check the column name against the suggestions, or select * with LIMIT 1 to see the columns."),
  PERMISSION_DENIED(4, "This object is not readable with the gateway's credentials or policy."),
  TIMEOUT(5, "Narrow the query (filters, LIMIT, pre-aggregation) so it finishes within the deadline."),
  ROW_LIMIT_EXCEEDED(6, "Add filters or aggregation, or raise maxRows up to the connection ceiling."),
  RATE_LIMIT_EXCEEDED(7, "Wait retryAfterMs and retry."),
  CONNECTION_ERROR(8, "The database is unreachable right now; retry shortly or check connection_list."),
  VALIDATION_FAILED(9, "Rewrite the statement as a single read-only query."),
  BUSY(10, "All connections are in use; retry after retryAfterMs."),
  CANCELLED(11, "The query was cancelled."),
  INVALID_ARGUMENT(12, "Fix the tool arguments as described and retry."),
  NOT_FOUND(13, "The referenced object does not exist."),
  INTERNAL_ERROR(14, "Unexpected gateway failure; retry, and report it if it persists."),
  QUERY_ERROR(15, "The database rejected the query; read the message and sql_state."),
  NOT_READY(16, "The catalog of this connection is still being scanned; retry after retryAfterMs."),
  AMBIGUOUS_NAME(17, "Several objects match this name; pass one of the candidates fully qualified."),
  CONFLICT(18, "Another page already has this key with other content or scope; use another heading or edit it."),
  CONFIRMATION_REQUIRED(19, "This write is destructive; check estimatedRows, then call again with confirm_destructive: true.");

  private final int code;
  private final String hint;

  ErrorType(int code, String hint) {
    this.code = code;
    this.hint = hint;
  }

  /** Stable numeric code used as the event-bus failure code. */
  public int code() {
    return code;
  }

  /** Default advice for an agent when the raising site has nothing more specific. */
  public String hint() {
    return hint;
  }

  /** The wire name, e.g. {@code table_not_found}. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public static ErrorType fromWire(String name) {
    return valueOf(name.toUpperCase(java.util.Locale.ROOT));
  }

  public static ErrorType fromCode(int code) {
    for (ErrorType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return INTERNAL_ERROR;
  }
}
