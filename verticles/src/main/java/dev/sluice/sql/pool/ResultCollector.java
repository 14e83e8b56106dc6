package dev.sluice.sql.pool;

import dev.sluice.bus.JsonFields;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.RowChecksum;
import dev.sluice.sql.SqlError;
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
  private int seen;
  private int lastProgressRows;
  private long lastProgressNanos = System.nanoTime();

  /** Non-null in checksum mode: every row is hashed into it and none is kept or capped. */
  private final RowChecksum checksum;

  ResultCollector(EngineAdapter engine, int maxRows, IntConsumer progress) {
    this(engine, maxRows, progress, null);
  }

  ResultCollector(EngineAdapter engine, int maxRows, IntConsumer progress, RowChecksum checksum) {
    this.engine = engine;
    this.maxRows = checksum != null ? Integer.MAX_VALUE - 1 : maxRows;
    this.progress = progress;
    this.checksum = checksum;
  }

  Future<JsonObject> drain(Cursor cursor) {
    int want = Math.min(FETCH_SIZE, maxRows + 1 - rows.size());
    return cursor.read(want).compose(batch -> {
      accept(batch);
      if (truncated || !cursor.hasMore()) {
        // No Close of its own: the caller closes the statement, which ends the cursor with it.
        return Future.succeededFuture(result());
      }
      return drain(cursor);
    });
  }

  /** A whole result the engine sent at once (statements without a cursor); still capped. */
  JsonObject collect(RowSet<Row> all) {
    accept(all);
    return result();
  }

  /** A result read in one fetch (see {@link EngineAdapter#readInOneTrip}); still capped. */
  JsonObject collect(EngineAdapter.Rows all) {
    accept(all.columns(), all.rows());
    return result();
  }

  private void accept(RowSet<Row> batch) {
    accept(batch.columnDescriptors(), batch);
  }

  private void accept(List<ColumnDescriptor> described, Iterable<Row> batch) {
    if (columns == null) {
      // a write without RETURNING has no columns at all
      columns = described == null ? java.util.List.of() : described;
      for (ColumnDescriptor c : columns) {
        String why = engine.unreadable(c);
        if (why != null) {
          throw new SqlError(ErrorType.QUERY_ERROR, why).with("column", c.name()).with("type", engine.typeName(c));
        }
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
      if (checksum != null) {
        checksum.add(out);
        seen++;
        continue;
      }
      rows.add(out);
    }
    long now = System.nanoTime();
    int count = checksum != null ? seen : rows.size();
    if (count - lastProgressRows >= FETCH_SIZE || now - lastProgressNanos >= PROGRESS_EVERY_MS * 1_000_000) {
      lastProgressRows = count;
      lastProgressNanos = now;
      progress.accept(count);
    }
  }

  private JsonObject result() {
    if (checksum != null) {
      return checksum.toJson().put("headers", headers);
    }
    // room for what the executor adds on the way out (timings, queuedMs, queryId, ...)
    return JsonFields.object(10)
        .put("headers", headers)
        .put("headerTypes", headerTypes)
        .put("rows", rows)
        .put("rowCount", rows.size())
        .put("truncated", truncated);
  }
}
