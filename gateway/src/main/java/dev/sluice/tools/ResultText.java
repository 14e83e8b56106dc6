package dev.sluice.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A compact text rendering of a query result for clients that ignore structuredContent: a header
 * line, tab-separated rows (at most {@link #MAX_ROWS}), and a summary line.
 */
public final class ResultText {

  static final int MAX_ROWS = 50;
  private static final int MAX_CELL = 200;

  private ResultText() {}

  public static String render(JsonObject r) {
    StringBuilder sb = new StringBuilder();
    // no default arrays made per call, no stream: this runs for every result
    JsonArray headers = r.getJsonArray("headers");
    for (int j = 0; headers != null && j < headers.size(); j++) {
      sb.append(j > 0 ? "\t" : "").append(headers.getValue(j));
    }
    sb.append('\n');
    JsonArray rows = r.getJsonArray("rows");
    if (rows == null) {
      rows = new JsonArray();
    }
    int shown = Math.min(rows.size(), MAX_ROWS);
    for (int i = 0; i < shown; i++) {
      JsonArray row = rows.getJsonArray(i);
      for (int j = 0; j < row.size(); j++) {
        if (j > 0) {
          sb.append('\t');
        }
        Object v = row.getValue(j);
        String s = v == null ? "NULL" : String.valueOf(v);
        sb.append(s.length() > MAX_CELL ? s.substring(0, MAX_CELL) + "…" : s.replace('\n', ' '));
      }
      sb.append('\n');
    }
    int count = r.getInteger("rowCount", rows.size());
    sb.append('(').append(count).append(count == 1 ? " row" : " rows");
    if (shown < rows.size()) {
      sb.append(", first ").append(shown).append(" shown here; all in structuredContent");
    }
    if (r.getBoolean("truncated", false)) {
      sb.append(", truncated at maxRows");
    }
    Object ms = r.getValue("executionTimeMs");
    if (ms != null) {
      sb.append(", ").append(ms).append(" ms");
    }
    return sb.append(')').toString();
  }
}
