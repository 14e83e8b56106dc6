package dev.sluice.sql;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Cursor;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.desc.ColumnDescriptor;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Reads a cursor batch by batch and stops at {@code maxRows}: one row past the limit only sets
 * {@code truncated}, so a large result never sits whole in memory.
 */
final class ResultCollector {

  /** Rows per round trip, also the progress step. */
  static final int FETCH_SIZE = 1_000;
  /** Progress at least this often while rows arrive. */
  static final long PROGRESS_EVERY_MS = 250;

  private final EngineAdapter engine;
  private final int maxRows;
  private final IntConsumer progress;
  private final JsonArray headers = new JsonArray();
  private final JsonArray headerTypes = new JsonArray();
  private final JsonArray rows = new JsonArray();
  private List<ColumnDescriptor> columns;
  private boolean truncated;
  private int lastProgressRows;
  private long lastProgressNanos = System.nanoTime();

  ResultCollector(EngineAdapter engine, int maxRows, IntConsumer progress) {
    this.engine = engine;
    this.maxRows = maxRows;
    this.progress = progress;
  }

  Future<JsonObject> drain(Cursor cursor) {
    int want = Math.min(FETCH_SIZE, maxRows + 1 - rows.size());
    return cursor.read(want).compose(batch -> {
      accept(batch);
      if (truncated || !cursor.hasMore()) {
        return cursor.close().otherwiseEmpty().map(v -> result());
      }
      return drain(cursor);
    });
  }

  /** A whole result the engine sent at once (statements without a cursor); still capped. */
  JsonObject collect(RowSet<Row> all) {
    accept(all);
    return result();
  }

  private void accept(RowSet<Row> batch) {
    if (columns == null) {
      columns = batch.columnDescriptors();
      for (ColumnDescriptor c : columns) {
        headers.add(c.name());
        headerTypes.add(engine.typeName(c));
      }
    }
    for (Row row : batch) {
      if (rows.size() == maxRows) {
        truncated = true;
        break;
      }
      JsonArray out = new JsonArray();
      for (int i = 0; i < columns.size(); i++) {
        out.add(engine.cell(row, i, columns.get(i)));
      }
      rows.add(out);
    }
    long now = System.nanoTime();
    if (rows.size() - lastProgressRows >= FETCH_SIZE || now - lastProgressNanos >= PROGRESS_EVERY_MS * 1_000_000) {
      lastProgressRows = rows.size();
      lastProgressNanos = now;
      progress.accept(rows.size());
    }
  }

  private JsonObject result() {
    return new JsonObject()
        .put("headers", headers)
        .put("headerTypes", headerTypes)
        .put("rows", rows)
        .put("rowCount", rows.size())
        .put("truncated", truncated);
  }
}
