package dev.sluice.engine.mysql;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.util.HashSet;
import java.util.Set;

/**
 * What the MySQL wire metadata cannot tell: which TINYINT columns are BOOLEAN (TINYINT(1)) and
 * which MariaDB LONGTEXT columns are JSON (an alias checked by {@code json_valid}). The client does
 * not expose the column length or the source table, so this is keyed by column name within the
 * connection's database; a name that is boolean/JSON in one table and not in another follows the
 * first kind found.
 */
final class MySqlColumnHints {

  final Set<String> booleans;
  final Set<String> jsonText;

  static final MySqlColumnHints NONE = new MySqlColumnHints(Set.of(), Set.of());

  private MySqlColumnHints(Set<String> booleans, Set<String> jsonText) {
    this.booleans = booleans;
    this.jsonText = jsonText;
  }

  static Future<MySqlColumnHints> load(SqlConnection conn, boolean mariadb) {
    String json = mariadb
        ? " OR (c.DATA_TYPE = 'longtext' AND EXISTS (SELECT 1 FROM information_schema.CHECK_CONSTRAINTS k"
            + " WHERE k.CONSTRAINT_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME"
            + " AND k.CHECK_CLAUSE LIKE CONCAT('%json_valid(`', c.COLUMN_NAME, '`)%')))"
        : "";
    return conn.query("SELECT c.COLUMN_NAME, c.DATA_TYPE FROM information_schema.COLUMNS c"
            + " WHERE c.TABLE_SCHEMA = DATABASE() AND (c.COLUMN_TYPE = 'tinyint(1)'" + json + ") LIMIT 20000")
        .execute()
        .map(rs -> {
          Set<String> b = new HashSet<>();
          Set<String> j = new HashSet<>();
          rs.forEach(r -> ("tinyint".equalsIgnoreCase(r.getString(1)) ? b : j).add(r.getString(0)));
          return new MySqlColumnHints(Set.copyOf(b), Set.copyOf(j));
        });
  }
}
