package dev.sluice.catalog;

import dev.sluice.config.CatalogConfig;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.LocalExecutors;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Scans one connection into a {@link CatalogSnapshot}: tables, columns, foreign keys, then a value
 * profile of the text columns. Every statement goes to the connection's executor over the bus, so
 * the deadline, pool limits and read-only guard are the agents' own. Catalog listings are read in
 * pages no larger than the connection's row ceiling; profiling runs at most
 * {@link CatalogConfig#concurrency()} statements at a time. A table that cannot be profiled is
 * recorded in {@link CatalogSnapshot#problems()} and keeps its metadata.
 */
public final class CatalogScanner {

  /** Catalog listings are paged; a page never exceeds the connection's row ceiling. */
  private static final int MAX_PAGE = 5_000;
  /** Values longer than this are not useful as literals and would bloat the snapshot. */
  static final int MAX_VALUE_CHARS = 200;

  private final Vertx vertx;
  private final ConnectionConfig connection;
  private final CatalogConfig settings;
  private final Introspection sql;
  private final ScanProgress progress = new ScanProgress();
  private final List<ScanProblem> problems = Collections.synchronizedList(new ArrayList<>());

  public CatalogScanner(Vertx vertx, ConnectionConfig connection, CatalogConfig settings) {
    this.vertx = vertx;
    this.connection = connection;
    this.settings = settings;
    this.sql = dev.sluice.engine.Engines.of(connection.driver()).introspection(connection);
  }

  public ScanProgress progress() {
    return progress;
  }

  /** Runs the scan; fails only when the catalog itself cannot be listed. */
  public Future<CatalogSnapshot> scan() {
    Instant started = Instant.now();
    Map<String, Builder> tables = new LinkedHashMap<>();
    progress.phase("tables", 0);
    return pages(sql.tables(), row -> {
      TableRef ref = new TableRef(text(row, 0), text(row, 1), text(row, 2));
      String kind = text(row, 3);
      String comment = text(row, 4);
      TableNotes notes = sql.notes(comment);
      tables.put(key(ref.db(), ref.name()), new Builder(ref, kind, notes.table(), number(row, 5), notes,
          sql.viewDefinition(text(row, 6))));
    }).compose(v -> {
      progress.phase("columns", tables.size());
      return pages(sql.columns(null), row -> addColumn(tables, row))
          .recover(err -> columnsTableByTable(tables, SqlError.from(err)));
    }).compose(v -> {
      progress.phase("foreign keys", tables.size());
      return pages(sql.foreignKeys(), row -> {
        Builder b = tables.get(key(text(row, 0), text(row, 1)));
        if (b != null) {
          String toColumn = text(row, 6);
          if (toColumn == null) {
            toColumn = primaryKeyOf(tables.get(key(text(row, 4), text(row, 5))));
          }
          b.foreignKeys.add(new CatalogForeignKey(text(row, 2), text(row, 3), text(row, 4), text(row, 5),
              toColumn, text(row, 7)));
        }
      });
    }).compose(v -> {
      progress.phase("profile", tables.size());
      Iterator<Supplier<Future<Void>>> jobs = tables.values().stream()
          .map(b -> (Supplier<Future<Void>>) () -> profile(b).onComplete(x -> progress.advance()))
          .iterator();
      return BoundedRunner.run(jobs, settings.concurrency());
    }).map(v -> {
      List<CatalogTable> out = new ArrayList<>();
      int profiled = 0;
      for (Builder b : tables.values()) {
        CatalogTable t = b.build();
        profiled += (int) t.columns().stream().filter(CatalogColumn::profiled).count();
        out.add(t);
      }
      String now = Instant.now().toString();
      return new CatalogSnapshot(connection.id(), connection.driver().wireName(), UUID.randomUUID().toString(),
          started.toString(), System.currentTimeMillis() - started.toEpochMilli(), out, new ArrayList<>(problems),
          new ProfileInfo(settings.sampleRows(), settings.valuesPerColumn(), profiled, now));
    });
  }

  private static void addColumn(Map<String, Builder> tables, JsonArray row) {
    Builder b = tables.get(key(text(row, 0), text(row, 1)));
    if (b != null) {
      String name = text(row, 2);
      String nativeType = text(row, 3) == null ? "" : text(row, 3);
      String normalized = TypeFamilies.normalized(nativeType);
      String fromNotes = b.notes.column(name);
      String comment = fromNotes != null ? fromNotes : text(row, 5);
      b.columns.add(new CatalogColumn(name, nativeType, normalized, TypeFamilies.dimension(normalized),
          bool(row, 4), bool(row, 6), comment, List.of(), null));
    }
  }

  /**
   * The whole column listing failed (SQLite's pragma_table_info fails on a view whose table was
   * dropped): list table by table, record the objects that fail, keep the rest. If no table can be
   * listed, the cause is not one object, and the scan fails with the original error.
   */
  private Future<Void> columnsTableByTable(Map<String, Builder> tables, SqlError whole) {
    tables.values().forEach(b -> b.columns.clear());
    List<ScanProblem> failed = Collections.synchronizedList(new ArrayList<>());
    Iterator<Supplier<Future<Void>>> jobs = tables.values().stream()
        .map(b -> (Supplier<Future<Void>>) () -> pages(sql.columns(b.ref), row -> addColumn(tables, row))
            .recover(err -> {
              SqlError e = SqlError.from(err);
              failed.add(new ScanProblem(b.ref.display(), e.type().wireName(), e.getMessage()));
              b.unreadable = true;
              return Future.succeededFuture();
            }))
        .iterator();
    return BoundedRunner.run(jobs, settings.concurrency()).compose(v -> {
      if (!tables.isEmpty() && failed.size() == tables.size()) {
        return Future.failedFuture(whole);
      }
      problems.addAll(failed);
      return Future.succeededFuture();
    });
  }

  /** Row count (where the catalog has none) and sampled values of each text column of one table. */
  private Future<Void> profile(Builder b) {
    Future<Void> count = Future.succeededFuture();
    if (b.unreadable) {
      return Future.succeededFuture();
    }
    String countSql = sql.rowCount(b.ref);
    if (countSql != null && "table".equals(b.kind)) {
      count = query(countSql, 1).map(reply -> {
        JsonArray rows = reply.getJsonArray("rows");
        b.estimatedRows = rows.isEmpty() ? null : number(rows.getJsonArray(0), 0);
        return (Void) null;
      });
    }
    return count.compose(v -> profileColumns(b)).recover(err -> {
      SqlError e = SqlError.from(err);
      problems.add(new ScanProblem(b.ref.display(), e.type().wireName(), e.getMessage()));
      return Future.succeededFuture();
    });
  }

  private Future<Void> profileColumns(Builder b) {
    if (!"table".equals(b.kind)) {
      return Future.succeededFuture();
    }
    List<Supplier<Future<Void>>> steps = new ArrayList<>();
    for (int i = 0; i < b.columns.size(); i++) {
      int index = i;
      CatalogColumn c = b.columns.get(i);
      if (TypeFamilies.profiled(c.normalizedType())) {
        steps.add(() -> profileColumn(b, index, c));
      }
    }
    return BoundedRunner.sequentially(steps.iterator());
  }

  private Future<Void> profileColumn(Builder b, int index, CatalogColumn c) {
    String sample = sql.sample(b.ref, c.name(), settings.sampleRows(), settings.valuesPerColumn());
    return query(sample, settings.valuesPerColumn()).map(reply -> {
      JsonArray rows = reply.getJsonArray("rows");
      List<String> values = new ArrayList<>();
      long distinct = 0;
      for (int i = 0; i < rows.size(); i++) {
        JsonArray row = rows.getJsonArray(i);
        String v = text(row, 0);
        Long d = number(row, 2);
        distinct = d == null ? distinct : d;
        if (v != null && !v.isEmpty() && v.length() <= MAX_VALUE_CHARS) {
          values.add(v);
        }
      }
      b.columns.set(index, c.withProfile(values, distinct));
      return (Void) null;
    });
  }

  /** Runs a paged listing, handing each row to {@code sink}. */
  private Future<Void> pages(String listing, Consumer<JsonArray> sink) {
    int page = Math.min(MAX_PAGE, Math.max(1, connection.maxRowsCeiling()));
    Promise<Void> done = Promise.promise();
    page(listing, page, 0, sink, done);
    return done.future();
  }

  /** One page after another from callbacks, never a nested chain (see {@link BoundedRunner}). */
  private void page(String listing, int page, long offset, Consumer<JsonArray> sink, Promise<Void> done) {
    query(listing + " LIMIT " + page + " OFFSET " + offset, page).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      JsonArray rows = ar.result().getJsonArray("rows");
      for (int i = 0; i < rows.size(); i++) {
        sink.accept(rows.getJsonArray(i));
      }
      if (rows.size() < page) {
        done.complete();
      } else {
        page(listing, page, offset + page, sink, done);
      }
    });
  }

  private Future<JsonObject> query(String statement, int maxRows) {
    JsonObject request = SqlBus.queryRequest(connection.id(), "catalog-" + UUID.randomUUID(), statement, maxRows);
    return LocalExecutors.execute(vertx, connection.driver(), SqlRequest.fromJson(request),
        connection.queryTimeoutMs() + SqlBus.REPLY_GRACE_MS);
  }

  private static String primaryKeyOf(Builder target) {
    if (target == null) {
      return null;
    }
    return target.columns.stream().filter(CatalogColumn::primaryKey).map(CatalogColumn::name).findFirst()
        .orElse(null);
  }

  private static String key(String db, String table) {
    return db + "\u0000" + table;
  }



  static String text(JsonArray row, int i) {
    Object v = row.getValue(i);
    return v == null ? null : String.valueOf(v);
  }

  static Long number(JsonArray row, int i) {
    Object v = row.getValue(i);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return new java.math.BigDecimal(s.trim()).longValue();
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** Engines return predicates as true/false (PostgreSQL) or 1/0 (MySQL, SQLite). */
  static boolean bool(JsonArray row, int i) {
    Object v = row.getValue(i);
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Number n) {
      return n.longValue() != 0;
    }
    return v != null && ("t".equalsIgnoreCase(v.toString()) || "true".equalsIgnoreCase(v.toString())
        || "1".equals(v.toString()));
  }

  /** A table being assembled. */
  private static final class Builder {
    final TableRef ref;
    final String kind;
    final String comment;
    Long estimatedRows;
    final TableNotes notes;
    /** Its columns could not be listed; it is in the problems and is not profiled. */
    boolean unreadable;
    final List<CatalogColumn> columns = new ArrayList<>();
    final List<CatalogForeignKey> foreignKeys = new ArrayList<>();

    final String definition;

    Builder(TableRef ref, String kind, String comment, Long estimatedRows, TableNotes notes,
        String definition) {
      this.ref = ref;
      this.kind = kind;
      this.comment = comment;
      this.estimatedRows = estimatedRows;
      this.notes = notes;
      this.definition = definition;
    }

    CatalogTable build() {
      return new CatalogTable(ref, kind, comment, estimatedRows, columns, foreignKeys, definition);
    }
  }
}
