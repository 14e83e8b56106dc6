package dev.sluice.sql.pool;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.config.ConnectionConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.sqlclient.ClientBuilder;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import io.vertx.sqlclient.SqlConnection;
import java.net.ConnectException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The pool handling both network engines share: a query pool sized by the config, a one-connection
 * side pool for probes, cancels and schema look-ups (so they work while the query pool is full),
 * lease counters, and the failures every driver raises the same way.
 */
public abstract class PooledEngine implements EngineAdapter {

  /** Fail fast on an unreachable server instead of the 30 s TCP default. */
  public static final int CONNECT_TIMEOUT_MS = 3_000;

  protected final Vertx vertx;
  protected final ConnectionConfig cfg;
  protected Pool pool;
  protected Pool sidePool;
  protected volatile ServerInfo serverInfo;
  private int inUse;
  private int waiting;

  protected PooledEngine(Vertx vertx, ConnectionConfig cfg) {
    this.vertx = vertx;
    this.cfg = cfg;
  }

  /** The driver's pool builder, e.g. {@code PgBuilder.pool()}. */
  protected abstract ClientBuilder<Pool> builder();

  protected abstract SqlConnectOptions connectOptions();

  /**
   * Session setup run once per physical connection; must close (return) the connection.
   *
   * @param side whether the connection is the side pool's (probes, cancels, look-ups), which
   *     never takes a call's statement
   */
  protected Handler<SqlConnection> connectHandler(boolean side) {
    return null;
  }

  /**
   * Opens the deadline-bound transaction of a fresh lease: READ ONLY, or READ WRITE for a gated
   * write. Yields the lease; its {@link Lease#opened} may still be pending (PostgreSQL pipelines).
   */
  protected abstract Future<Lease> openSession(SqlConnection conn, long timeoutMs, boolean write);

  /**
   * A lease without a transaction when the session's defaults already carry read only and this
   * deadline (see {@link EngineAdapter#leaseBare}); null when they do not.
   */
  protected Lease bareLease(SqlConnection conn, long timeoutMs) {
    return null;
  }

  /** Asks the server for its version. */
  protected abstract Future<ServerInfo> detect(SqlConnection conn);

  @Override
  public Future<Void> start() {
    pool = build(new PoolOptions()
        .setMaxSize(Math.max(1, cfg.poolSize()))
        .setMaxWaitQueueSize(cfg.maxWaitQueue())
        // A waiter older than the deadline is useless; the gateway timer already answered it.
        .setConnectionTimeout((int) Math.max(1_000, cfg.queryTimeoutMs() + 1_000))
        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
        .setName("sluice-" + cfg.id()), false);
    sidePool = build(new PoolOptions().setMaxSize(1).setMaxWaitQueueSize(32)
        .setConnectionTimeout(CONNECT_TIMEOUT_MS * 2).setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
        .setName("sluice-side-" + cfg.id()), true);
    if (standings() != null) {
      refreshTimer = vertx.setPeriodic(REFRESH_EVERY_MS, id -> refreshStandings());
    }
    // Down at start is a status, not a deployment failure: info reports it and later calls retry.
    return probe().<Void>mapEmpty().otherwiseEmpty();
  }

  /** How often the standings due are asked again: well inside the time between due and expired. */
  static final long REFRESH_EVERY_MS = 5_000;
  /**
   * Look-ups per round: half the side pool's wait queue, so that a cancel or a probe always finds
   * room. A standing not reached goes on to expire and is looked up by a read, as without this.
   */
  static final int REFRESH_AT_MOST = 16;
  private long refreshTimer = -1;

  /** What the catalog said of the relations reads name, kept fresh by this pool's timer; null when none. */
  protected RelationStandings standings() {
    return null;
  }

  /** One name's standing read on the side pool: true, false, or null when there is no such relation. */
  protected Future<Boolean> lookUpStanding(String key) {
    return Future.failedFuture("no relation standings on " + cfg.id());
  }

  private void refreshStandings() {
    RelationStandings standings = standings();
    for (String key : standings.dueForRefresh(System.currentTimeMillis(), REFRESH_AT_MOST)) {
      lookUpStanding(key).onComplete(ar -> {
        if (ar.succeeded()) {
          standings.learned(key, ar.result(), System.currentTimeMillis());
        } else {
          standings.notLearned(key);
        }
      });
    }
  }

  private Pool build(PoolOptions options, boolean side) {
    ClientBuilder<Pool> b = builder()
        .with(options)
        .with(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS))
        .connectingTo(connectOptions())
        .using(vertx);
    Handler<SqlConnection> h = connectHandler(side);
    return (h == null ? b : b.withConnectHandler(h)).build();
  }

  @Override
  public Future<Void> close() {
    vertx.cancelTimer(refreshTimer);
    return Future.join(pool.close(), sidePool.close()).mapEmpty();
  }

  @Override
  public Future<ServerInfo> probe() {
    return sidePool.withConnection(this::detect)
        .timeout(CONNECT_TIMEOUT_MS + 500L, TimeUnit.MILLISECONDS)
        .onSuccess(info -> serverInfo = info);
  }

  @Override
  public Future<Lease> lease(long timeoutMs) {
    return lease(timeoutMs, false);
  }

  @Override
  public Future<Lease> leaseWrite(long timeoutMs) {
    return lease(timeoutMs, true);
  }

  @Override
  public Future<Lease> leaseBare(long timeoutMs) {
    return lease(timeoutMs, false, true);
  }

  private Future<Lease> lease(long timeoutMs, boolean write) {
    return lease(timeoutMs, write, false);
  }

  private Future<Lease> lease(long timeoutMs, boolean write, boolean bare) {
    waiting++;
    return pool.getConnection()
        .andThen(ar -> waiting--)
        .compose(conn -> {
          inUse++;
          if (leavesCommandsUnansweredOnLoss()) {
            Promise<Void> gone = Promise.promise();
            conn.closeHandler(v -> gone.tryComplete());
            losses.put(conn, gone.future());
          }
          Lease plain = bare ? bareLease(conn, timeoutMs) : null;
          if (plain != null) {
            return Future.succeededFuture(plain);
          }
          return openSession(conn, timeoutMs, write)
              .recover(err -> {
                losses.remove(conn);
                return conn.close().transform(x -> {
                  inUse--;
                  return Future.<Lease>failedFuture(err);
                });
              });
        });
  }

  /**
   * Clears what a call may have left on the session after its ROLLBACK: locks, settings, cursors,
   * temporary objects. The guard already refuses every statement that creates such state; this is
   * the second wall, so that no caller inherits another's session.
   */
  protected abstract Future<Void> resetSession(SqlConnection conn);

  /**
   * Whether the driver never answers commands that were queued on a connection, or on their way,
   * when it was lost (server restart, cut socket). A release waiting for its ROLLBACK or reset
   * would then hold the caller's answer until the deadline and the pool slot for good, so for such
   * a driver every lease listens for its connection's close ({@link #losses}).
   */
  protected boolean leavesCommandsUnansweredOnLoss() {
    return false;
  }

  /**
   * Per leased connection of a driver that {@link #leavesCommandsUnansweredOnLoss}: completes when
   * it closes under the lease, which also ends its release; the pool then drops it. Touched on the
   * executor verticle's context only.
   */
  private final Map<SqlConnection, Future<Void>> losses = new IdentityHashMap<>();

  @Override
  public Future<Void> release(Lease lease) {
    Future<Void> gone = losses.remove(lease.conn());
    Future<Void> cleaned = cleanUp(lease);
    Future<Void> settled = gone == null ? cleaned : Future.any(cleaned, gone).<Void>mapEmpty();
    return settled.otherwiseEmpty().eventually(() -> lease.conn().close()).andThen(x -> inUse--).otherwiseEmpty();
  }

  /** What the call may have left on the session, undone; never fails; the connection stays leased. */
  private Future<Void> cleanUp(Lease lease) {
    Bare bare = lease.bare();
    if (bare != null && bare.reset != null) {
      // The reset already travelled with the statement: nothing more unless it failed or a cancel
      // request may have hit it; then the full clean-up.
      return bare.reset.transform(ar -> ar.succeeded() && !bare.cancelled ? Future.<Void>succeededFuture()
          : rollbackAndReset(lease));
    }
    return rollbackAndReset(lease);
  }

  private Future<Void> rollbackAndReset(Lease lease) {
    // queued behind the ROLLBACK on the same connection: both share a round trip where the driver pipelines
    Future<Void> rollback = lease.conn().query("ROLLBACK").execute().<Void>mapEmpty().otherwiseEmpty();
    Future<Void> reset = resetSession(lease.conn());
    return Future.join(rollback, reset.otherwiseEmpty()).<Void>mapEmpty().otherwiseEmpty();
  }

  /** Runs {@code work} on the side pool, for look-ups that must not queue behind queries. */
  protected <T> Future<T> onSide(Function<SqlConnection, Future<T>> work) {
    return sidePool.withConnection(work);
  }

  @Override
  public ConnectionConfig config() {
    return cfg;
  }

  @Override
  public JsonObject poolStats() {
    return new JsonObject().put("size", cfg.poolSize()).put("inUse", inUse).put("waiting", waiting);
  }

  /**
   * Failures every driver raises alike: the pool's full wait queue (busy), refused/closed sockets
   * and connect timeouts (connection_error). Null when the failure is engine-specific.
   */
  protected SqlError commonError(Throwable t) {
    String msg = String.valueOf(t.getMessage());
    if (msg.contains("max wait queue size")) {
      return new SqlError(ErrorType.BUSY, "all " + cfg.poolSize() + " connections of '" + cfg.id()
          + "' are busy and " + cfg.maxWaitQueue() + " calls are already waiting")
          .with("retryAfterMs", retryAfterMs());
    }
    SqlError tls = dev.sluice.sql.tls.TlsFailures.describe(t, cfg);
    if (tls != null) {
      return tls;
    }
    if (t instanceof ConnectException
        || t instanceof ClosedConnectionException || t instanceof java.util.concurrent.TimeoutException
        || t instanceof io.netty.channel.ConnectTimeoutException || t instanceof java.io.IOException
        || t instanceof VertxException && (msg.contains("Connection refused") || msg.contains("onnection timed out")
            || msg.contains("closed") || msg.contains("Timeout"))) {
      return new SqlError(ErrorType.CONNECTION_ERROR, "cannot reach the database of '" + cfg.id() + "': "
          + firstLine(msg));
    }
    return null;
  }

  /** How long a busy caller should wait: a fraction of the deadline, between 250 ms and 2 s. */
  protected long retryAfterMs() {
    return Math.max(250, Math.min(2_000, cfg.queryTimeoutMs() / 4));
  }

  protected static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
