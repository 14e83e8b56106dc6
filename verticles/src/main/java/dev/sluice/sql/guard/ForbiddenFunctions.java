package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Functions that reach beyond reading rows: files, programs, server settings, other sessions,
 * locks, sequences, large objects, replication. Refused anywhere in a statement, whatever the
 * schema qualification or case. Harmless waits (pg_sleep, SLEEP, BENCHMARK) stay allowed: the
 * deadline bounds them.
 */
final class ForbiddenFunctions {

  private static final Set<String> POSTGRES = Set.of("set_config", "pg_read_file", "pg_read_binary_file",
      "pg_stat_file", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
      "nextval", "setval", "pg_switch_wal", "pg_drop_replication_slot", "pg_logical_emit_message",
      "pg_promote", "txid_current", "pg_current_xact_id", "pg_notify", "pg_start_backup", "pg_stop_backup",
      "pg_import_system_collations", "pg_logdir_ls", "pg_export_snapshot");
  private static final List<String> POSTGRES_PREFIXES = List.of("lo_", "pg_ls_", "dblink", "pg_advisory",
      "pg_try_advisory", "pg_create_", "pg_replication_origin", "pg_stat_reset", "pg_file_", "query_to_xml",
      "cursor_to_xml", "pg_backup_", "pg_wal_replay_", "pg_logical_slot_", "pg_copy_", "pg_replication_slot_advance");
  private static final Set<String> MYSQL = Set.of("get_lock", "release_lock", "release_all_locks", "is_free_lock",
      "is_used_lock", "load_file", "sys_exec", "sys_eval", "nextval", "setval", "lastval", "master_pos_wait", "source_pos_wait");
  private static final Set<String> SQLITE = Set.of("load_extension", "writefile", "readfile", "edit",
      "fts3_tokenizer");

  private ForbiddenFunctions() {}

  /** Why the function is refused, or null when it may be called. */
  static String why(Dialect dialect, String name) {
    String n = name.toLowerCase(Locale.ROOT);
    switch (dialect) {
      case POSTGRES:
        if (POSTGRES.contains(n) || POSTGRES_PREFIXES.stream().anyMatch(n::startsWith)) {
          return reason(n);
        }
        return null;
      case MYSQL:
        return MYSQL.contains(n) ? reason(n) : null;
      default:
        return SQLITE.contains(n) ? reason(n) : null;
    }
  }

  private static String reason(String n) {
    if (n.contains("lock")) {
      return "takes locks that outlive a read";
    }
    if (n.contains("file") || n.startsWith("lo_") || n.startsWith("pg_ls_") || n.equals("edit")) {
      return "reaches the server's file system";
    }
    if (n.contains("val") || n.contains("xact") || n.startsWith("txid")) {
      return "changes sequence or transaction state";
    }
    if (n.contains("backend") || n.contains("notify")) {
      return "acts on other sessions";
    }
    if (n.equals("set_config") || n.contains("conf")) {
      return "changes server or session settings";
    }
    if (n.startsWith("dblink") || n.contains("xml") || n.equals("sys_exec") || n.equals("sys_eval")) {
      return "runs other statements or programs";
    }
    return "administers the server";
  }
}
