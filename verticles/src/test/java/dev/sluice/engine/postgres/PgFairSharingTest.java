package dev.sluice.engine.postgres;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.QueuePolicy;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.sql.pool.FairSharingContract;
import dev.sluice.testing.TestDatabases;
import java.util.List;
import java.util.Locale;

/** The wait queue's order on PostgreSQL: a pool of one connection, engine sleeps as the work. */
@org.junit.jupiter.api.Tag("serial") // run alone: measures the order of service in time
class PgFairSharingTest extends FairSharingContract {

  @Override
  protected Driver driver() {
    return Driver.POSTGRES;
  }

  @Override
  protected ConnectionConfig config(String id, int poolSize, int maxWaitQueue, QueuePolicy policy) {
    TestDatabases.requirePostgres();
    return new ConnectionConfig(id, Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null,
        null, poolSize, maxWaitQueue, 60_000, 100, 10_000).withQueue(policy);
  }

  @Override
  protected SqlExecutorVerticle verticle(List<ConnectionConfig> configs) {
    return new SqlExecutorVerticle(PostgresEngine.INSTANCE, configs);
  }

  @Override
  protected String busySql(double seconds) {
    return String.format(Locale.ROOT, "SELECT pg_sleep(%.2f)", seconds);
  }
}
