package dev.sluice.config;

import java.nio.file.Path;

/**
 * The audit trail: one JSON line per tools/call (and per refused request) in
 * {@code <dir>/audit-YYYY-MM-DD[.N].jsonl}.
 *
 * @param enabled off only for throwaway setups; on by default
 * @param dir where the files go (default {@code <state.dir>/audit})
 * @param maxFileBytes a file is rotated past this size (and at midnight UTC)
 * @param flushMs records are written, flushed and fsynced in batches this far apart at most;
 *     a crash loses at most this window
 * @param buffer records waiting for the writer; beyond it {@code onOverflow} applies
 * @param onOverflow {@code drop} (count and log loudly) or {@code block} (refuse new calls with
 *     {@code busy} until the writer catches up)
 * @param postgresUrl optional second sink: a PostgreSQL database the records are also inserted
 *     into (null: files only)
 * @param postgresTable the table there (created if missing)
 */
public record AuditConfig(boolean enabled, Path dir, long maxFileBytes, long flushMs, int buffer, String onOverflow,
    String postgresUrl, String postgresTable) {

  public AuditConfig(boolean enabled, Path dir, long maxFileBytes, long flushMs, int buffer, String onOverflow) {
    this(enabled, dir, maxFileBytes, flushMs, buffer, onOverflow, null, "sluice_audit");
  }

  @Override
  public String toString() {
    return "AuditConfig[enabled=" + enabled + ", dir=" + dir + ", postgres=" + (postgresUrl == null ? "off"
        : postgresUrl.replaceAll("//([^:@/]+):[^@/]*@", "//$1:***@")) + "]";
  }

  public static final long DEFAULT_MAX_FILE_BYTES = 64L * 1024 * 1024;
  public static final long DEFAULT_FLUSH_MS = 200;
  public static final int DEFAULT_BUFFER = 10_000;

  public static AuditConfig defaults(Path stateDir) {
    return new AuditConfig(true, stateDir.resolve("audit"), DEFAULT_MAX_FILE_BYTES, DEFAULT_FLUSH_MS,
        DEFAULT_BUFFER, "drop");
  }
}
