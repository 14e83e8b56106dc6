package dev.sluice.engine.sqlite;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads descriptions from a SQLite CREATE TABLE text, which SQLite keeps verbatim: a {@code --}
 * comment on the line that opens the column list describes the table, and one at the end of a
 * column definition line describes that column. This is the convention the demo writer uses and
 * the one docs/catalog.md recommends.
 */
final class SqliteDdlComments {

  final String table;
  final Map<String, String> columns;

  private SqliteDdlComments(String table, Map<String, String> columns) {
    this.table = table;
    this.columns = columns;
  }

  static SqliteDdlComments parse(String ddl) {
    Map<String, String> cols = new HashMap<>();
    if (ddl == null) {
      return new SqliteDdlComments(null, cols);
    }
    String tableComment = null;
    boolean first = true;
    for (String line : ddl.split("\n")) {
      int dash = line.indexOf("--");
      String comment = dash < 0 ? null : line.substring(dash + 2).trim();
      if (first) {
        first = false;
        if (comment != null && !comment.isEmpty()) {
          tableComment = comment;
        }
        continue;
      }
      if (comment == null || comment.isEmpty()) {
        continue;
      }
      String name = leadingIdentifier(line.substring(0, dash).trim());
      if (name != null) {
        cols.put(name.toLowerCase(Locale.ROOT), comment);
      }
    }
    return new SqliteDdlComments(tableComment, cols);
  }

  String column(String name) {
    return columns.get(name.toLowerCase(Locale.ROOT));
  }

  private static String leadingIdentifier(String def) {
    if (def.isEmpty()) {
      return null;
    }
    char q = def.charAt(0);
    if (q == '"' || q == '`' || q == '[') {
      int end = def.indexOf(q == '[' ? ']' : q, 1);
      return end < 0 ? null : def.substring(1, end);
    }
    int end = 0;
    while (end < def.length() && (Character.isLetterOrDigit(def.charAt(end)) || def.charAt(end) == '_')) {
      end++;
    }
    String word = def.substring(0, end);
    String upper = word.toUpperCase(Locale.ROOT);
    boolean constraint = upper.equals("PRIMARY") || upper.equals("CONSTRAINT") || upper.equals("UNIQUE")
        || upper.equals("FOREIGN") || upper.equals("CHECK");
    return word.isEmpty() || constraint ? null : word;
  }
}
