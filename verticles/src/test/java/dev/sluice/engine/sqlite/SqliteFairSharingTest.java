package dev.sluice.engine.sqlite;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.pool.FairSharingContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** The wait queue's order on SQLite: one worker process, a CPU-bound count as the work. */
@org.junit.jupiter.api.Tag("serial") // run alone: measures the order of service in time
class SqliteFairSharingTest extends FairSharingContract {

  /** Rows a recursive count walks per second here, roughly; only the order of calls is asserted. */
  private static final int ROWS_PER_SECOND = 1_000_000;

  @TempDir
  Path dir;

  @Override
  protected Driver driver() {
    return Driver.SQLITE;
  }

  @Override
  protected ConnectionConfig config(String id, int poolSize, int maxWaitQueue, QueuePolicy policy)
      throws Exception {
    Path db = dir.resolve(id + ".sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE IF NOT EXISTS t (i INTEGER)");
    }
    return new ConnectionConfig(id, Driver.SQLITE, null, db.toString(), null, null, null, poolSize, maxWaitQueue, 60_000,
        100, 1_000).withQueue(policy);
  }

  @Override
  protected SqlExecutorVerticle verticle(List<ConnectionConfig> configs) {
    return new SqlExecutorVerticle(SqliteEngine.INSTANCE, configs);
  }

  @Override
  protected String busySql(double seconds) {
    return "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < "
        + Math.max(1, (long) (seconds * ROWS_PER_SECOND)) + ") SELECT count(*) FROM c";
  }
}
