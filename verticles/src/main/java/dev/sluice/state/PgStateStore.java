package dev.sluice.state;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The cluster store: one PostgreSQL table through the Vert.x PG client, so every node reads the
 * same snapshots, pages and runs. Each write takes the next value of a sequence as the entry's
 * version, which makes "has anything changed?" one indexed query. Claims are lease columns on the
 * entry row; the database's clock decides when one lapsed, so node clocks need not agree.
 *
 * <p>The interface is blocking (its callers run on worker threads): each method waits for the
 * pool's answer, and refuses to run on an event loop, where that wait would deadlock.
 */
public final class PgStateStore implements StateStore {

  private static final long TIMEOUT_MS = 30_000;

  private final Pool pool;
  private final String table;

  public PgStateStore(Vertx vertx, String url, String table) {
    this.pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(4)).connectingTo(dev.sluice.sql.tls.DatabaseTls.postgres(url))
        .using(vertx).build();
    this.table = table;
  }

  /** Creates the table, its sequence and its owner index if missing; safe when nodes start together. */
  @Override
  public Future<Void> init() {
    String seq = table + "_seq";
    return SerializedDdl.run(pool, table, List.of(
        "CREATE SEQUENCE IF NOT EXISTS " + seq,
        "CREATE TABLE IF NOT EXISTS " + table + " (area text NOT NULL, key text NOT NULL,"
            + " body text NOT NULL, version bigint NOT NULL DEFAULT nextval('" + seq + "'),"
            + " updated_at timestamptz NOT NULL DEFAULT now(), owner text, lease_until timestamptz,"
            + " PRIMARY KEY (area, key))",
        // renewals and the lapsed-claim sweep look rows up by owner every few seconds on every node
        "CREATE INDEX IF NOT EXISTS " + table.replace('.', '_') + "_owner ON " + table
            + " (owner) WHERE owner IS NOT NULL"));
  }

  RowSet<Row> run(String sql, Tuple args) {
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("the state store blocks; call it from a worker thread");
    }
    try {
      return pool.preparedQuery(sql).execute(args).toCompletionStage().toCompletableFuture()
          .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("state store: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("state store: no answer from PostgreSQL within " + TIMEOUT_MS + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static Entry entry(Row r) {
    return new Entry(r.getString("key"), r.getString("body"), Long.toString(r.getLong("version")),
        r.getOffsetDateTime("updated_at").toInstant());
  }

  @Override
  public Optional<Entry> get(String area, String key) {
    for (Row r : run("SELECT key, body, version, updated_at FROM " + table + " WHERE area = $1 AND key = $2",
        Tuple.of(area, StateStore.checkKey(key)))) {
      return Optional.of(entry(r));
    }
    return Optional.empty();
  }

  @Override
  public Optional<String> version(String area, String key) {
    for (Row r : run("SELECT version FROM " + table + " WHERE area = $1 AND key = $2",
        Tuple.of(area, StateStore.checkKey(key)))) {
      return Optional.of(Long.toString(r.getLong(0)));
    }
    return Optional.empty();
  }

  @Override
  public void put(String area, String key, String text) {
    run("INSERT INTO " + table + " (area, key, body) VALUES ($1, $2, $3) ON CONFLICT (area, key) DO UPDATE"
        + " SET body = excluded.body, version = nextval('" + table + "_seq'), updated_at = now()",
        Tuple.of(area, StateStore.checkKey(key), text));
  }

  @Override
  public boolean create(String area, String key, String text) {
    return run("INSERT INTO " + table + " (area, key, body) VALUES ($1, $2, $3) ON CONFLICT (area, key) DO NOTHING",
        Tuple.of(area, StateStore.checkKey(key), text)).rowCount() == 1;
  }

  @Override
  public void remove(String area, String key) {
    run("DELETE FROM " + table + " WHERE area = $1 AND key = $2", Tuple.of(area, StateStore.checkKey(key)));
  }

  @Override
  public List<Entry> all(String area) {
    List<Entry> out = new ArrayList<>();
    run("SELECT key, body, version, updated_at FROM " + table + " WHERE area = $1 ORDER BY key", Tuple.of(area))
        .forEach(r -> out.add(entry(r)));
    return out;
  }

  @Override
  public String areaVersion(String area) {
    Row r = run("SELECT count(*), coalesce(max(version), 0) FROM " + table + " WHERE area = $1", Tuple.of(area))
        .iterator().next();
    return r.getLong(0) + ":" + r.getLong(1);
  }

  @Override
  public boolean claim(String area, String key, String owner, long leaseMs) {
    return run("UPDATE " + table + " SET owner = $3, lease_until = now() + $4::bigint * interval '1 millisecond'"
        + " WHERE area = $1 AND key = $2 AND (owner IS NULL OR owner = $3 OR lease_until < now())",
        Tuple.of(area, StateStore.checkKey(key), owner, leaseMs)).rowCount() == 1;
  }

  @Override
  public void putClaimed(String area, String key, String text, String owner, long leaseMs) {
    run("INSERT INTO " + table + " (area, key, body, owner, lease_until)"
        + " VALUES ($1, $2, $3, $4, now() + $5::bigint * interval '1 millisecond') ON CONFLICT (area, key) DO UPDATE"
        + " SET body = excluded.body, version = nextval('" + table + "_seq'), updated_at = now(),"
        + " owner = excluded.owner, lease_until = excluded.lease_until",
        Tuple.of(area, StateStore.checkKey(key), text, owner, leaseMs));
  }

  @Override
  public void renew(String owner, long leaseMs) {
    run("UPDATE " + table + " SET lease_until = now() + $2::bigint * interval '1 millisecond' WHERE owner = $1",
        Tuple.of(owner, leaseMs));
  }

  @Override
  public void release(String area, String key, String owner) {
    run("UPDATE " + table + " SET owner = NULL, lease_until = NULL WHERE area = $1 AND key = $2 AND owner = $3",
        Tuple.of(area, StateStore.checkKey(key), owner));
  }

  @Override
  public List<String> lapsed(String area) {
    List<String> out = new ArrayList<>();
    run("SELECT key FROM " + table + " WHERE area = $1 AND owner IS NOT NULL AND lease_until < now() ORDER BY key",
        Tuple.of(area)).forEach(r -> out.add(r.getString(0)));
    return out;
  }

  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public void close() {
    pool.close();
  }

  /** For tests: when the entry's claim lapses, or null. */
  OffsetDateTime leaseUntil(String area, String key) {
    for (Row r : run("SELECT lease_until FROM " + table + " WHERE area = $1 AND key = $2", Tuple.of(area, key))) {
      return r.getOffsetDateTime(0);
    }
    return null;
  }
}
