package dev.sluice.engine.sqlite;

import dev.sluice.catalog.Introspection;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engine;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineConnection;
import dev.sluice.sql.analysis.SqlDialect;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Locale;
import java.util.Set;

/** SQLite, registered as driver {@code sqlite}: statements run in worker processes. */
public final class SqliteEngine implements Engine {

  public static final SqliteEngine INSTANCE = new SqliteEngine(SqliteWorker.DEFAULT_HEAP);

  private static final Set<String> CATALOG = Set.of("sqlite_master", "sqlite_schema", "sqlite_temp_master",
      "sqlite_temp_schema", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4", "dbstat", "sqlite_dbpage");

  private static volatile boolean hookInstalled;

  private final String workerHeap;

  private SqliteEngine(String workerHeap) {
    this.workerHeap = workerHeap;
  }

  /** The same engine with another {@code -Xmx} per worker process (tests of the memory cap). */
  public static SqliteEngine withWorkerHeap(String heap) {
    return new SqliteEngine(heap);
  }

  @Override
  public Driver driver() {
    return Driver.SQLITE;
  }

  @Override
  public SqlDialect dialect() {
    return SqliteDialect.INSTANCE;
  }

  @Override
  public String defaultSchema(ConnectionConfig connection) {
    return "main";
  }

  /** sqlite_master and friends, the dbstat and sqlite_dbpage virtual tables, pragma_* table functions. */
  @Override
  public boolean catalogRelation(String schema, String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return CATALOG.contains(n) || n.startsWith("pragma_");
  }

  @Override
  public Introspection introspection(ConnectionConfig connection) {
    return new SqliteIntrospection();
  }

  @Override
  public EngineConnection connect(Vertx vertx, Context context, ConnectionConfig connection) {
    return new SqliteConnection(vertx, context, connection, workerHeap);
  }

  /** A gateway that exits without undeploying still takes its workers down. */
  static synchronized void killWorkersOnExit() {
    if (hookInstalled) {
      return;
    }
    hookInstalled = true;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains(SqliteWorkerMain.MARKER))
        .forEach(ProcessHandle::destroyForcibly), "sluice-sqlite-workers-kill"));
  }
}
