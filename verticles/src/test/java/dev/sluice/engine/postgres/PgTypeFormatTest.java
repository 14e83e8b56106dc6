package dev.sluice.engine.postgres;

import static dev.sluice.sql.EngineTypeFixture.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineTypeFixture;
import dev.sluice.sql.SqlBus;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PgTypeFormatTest {

  @Test
  void fixtureValuesFormatAsSpecified() throws Exception {
    TestDatabases.requirePostgres();
    String schema = TestDatabases.uniqueName("pgtypes");
    Vertx vertx = Vertx.vertx();
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    try {
      run(admin, "CREATE SCHEMA " + schema);
      run(admin, "CREATE TABLE " + schema + ".t (n_small smallint, n_int int, n_big bigint, n_decimal numeric(12,4),"
          + " n_real real, n_double double precision, flag boolean, day date, ts timestamp, instant timestamptz,"
          + " body text, bin bytea, doc jsonb, missing int, id_uuid uuid)");
      admin.preparedQuery("INSERT INTO " + schema + ".t VALUES ($1, $2, $3, ($4::text)::numeric, $5, $6, $7, ($8::text)::date,"
              + " ($9::text)::timestamp, ($10::text || '+00')::timestamptz, $11, decode($12::text, 'hex'), ($13::text)::jsonb, NULL, ($14::text)::uuid)")
          .execute(Tuple.from(List.<Object>of(SMALL, INT, BIG, DECIMAL, REAL, DOUBLE, FLAG, DATE, TIMESTAMP, INSTANT_UTC,
              LONG_TEXT, BINARY_HEX, JSON, EngineTypeFixture.UUID)))
          .await(10, TimeUnit.SECONDS);
      ConnectionConfig cfg = new ConnectionConfig("types", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
          null, null, null, null, 1, 4, 5_000, 100, 1_000);
      vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(dev.sluice.engine.postgres.PostgresEngine.INSTANCE, List.of(cfg))).await(20, TimeUnit.SECONDS);
      List<String> cols = new ArrayList<>(COLUMNS);
      cols.add("id_uuid");
      JsonObject r = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.POSTGRES),
          SqlBus.queryRequest("types", "q1", "SELECT " + String.join(", ", cols) + " FROM " + schema + ".t", 10))
          .await(20, TimeUnit.SECONDS).body();
      assertEquals(new JsonArray(cols), r.getJsonArray("headers"));
      assertEquals(expected(true).encode(), r.getJsonArray("rows").getJsonArray(0).encode());
      System.out.println("[POSTGRES] headerTypes " + r.getJsonArray("headerTypes").encode());
    } finally {
      run(admin, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      admin.close().await(5, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The client's own value objects (network addresses, geometric types, money) read as PostgreSQL
   * prints them: each column is compared with the server's output function ({@code format('%s', v)}).
   */
  @Test
  void addressesAndGeometryReadAsPostgresPrintsThem() throws Exception {
    TestDatabases.requirePostgres();
    Vertx vertx = Vertx.vertx();
    Pool admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    List<String> values = List.of("'1.2.3.4'::inet", "'1.2.3.22/16'::inet", "'1.2.3.0/24'::cidr",
        "'2a00:1450::1'::inet", "'2a00:1450:0:0:1:0:0:1/64'::inet", "'2a00:1450:4001:800::200e'::inet",
        "'2a00:1450:8000::/33'::cidr", "point(1, 2.5)", "'[(0,0),(1,1.5)]'::lseg", "box(point(1, 1), point(0, 0))",
        "'((0,0),(1,0),(1,1))'::polygon",
        "'<(1,2),3>'::circle", "'{1,-1,0.5}'::line");
    try {
      deployExecutor(vertx, "shapes");
      StringBuilder select = new StringBuilder("SELECT ");
      StringBuilder asText = new StringBuilder("SELECT ");
      for (int i = 0; i < values.size(); i++) {
        select.append(i == 0 ? "" : ", ").append(values.get(i)).append(" AS c").append(i);
        asText.append(i == 0 ? "" : ", ").append("format('%s', ").append(values.get(i)).append(")");
      }
      select.append(", CAST(12.34 AS money) AS cash, ARRAY[CAST('1.2.3.10' AS inet), CAST('::1' AS inet)] AS list");
      JsonArray row = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.POSTGRES),
          SqlBus.queryRequest("shapes", "q2", select.toString(), 10)).await(20, TimeUnit.SECONDS).body()
          .getJsonArray("rows").getJsonArray(0);
      io.vertx.sqlclient.Row printed = admin.query(asText.toString()).execute().await(10, TimeUnit.SECONDS)
          .iterator().next();
      for (int i = 0; i < values.size(); i++) {
        assertEquals(printed.getString(i), row.getValue(i), values.get(i));
      }
      assertEquals("12.34", row.getValue(values.size()), "money: the amount, without lc_monetary's symbol");
      assertEquals(new JsonArray().add("1.2.3.10").add("::1"), row.getValue(values.size() + 1));
    } finally {
      admin.close().await(5, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The PG client reads oid, bit, varbit, xml and macaddr columns as null whatever they hold: such a
   * result fails with how to read it instead of showing nulls, and the cast it suggests works.
   */
  @Test
  void columnsTheClientReadsAsNullFailWithTheCastToUse() throws Exception {
    TestDatabases.requirePostgres();
    Vertx vertx = Vertx.vertx();
    try {
      deployExecutor(vertx, "nulls");
      for (String[] c : List.of(new String[] {"oid", "oid"}, new String[] {"CAST(B'101' AS varbit)", "varbit"},
          new String[] {"CAST('08:00:2b:01:02:03' AS macaddr)", "macaddr"}, new String[] {"CAST('<a/>' AS xml)", "xml"})) {
        dev.sluice.sql.SqlError e = dev.sluice.sql.SqlError.from(org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
            () -> vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.POSTGRES), SqlBus.queryRequest("nulls",
                "n-" + c[1], "SELECT relname, " + c[0] + " AS v FROM pg_class WHERE relname = 'pg_class'", 10))
                .await(20, TimeUnit.SECONDS)));
        assertEquals(dev.sluice.sql.ErrorType.QUERY_ERROR, e.type(), e.toJson().encode());
        assertEquals("column \"v\" is of type " + c[1] + ", which the gateway cannot read (every value would come"
            + " back as null); cast it to text in the query, e.g. v::text", e.getMessage());
        assertEquals(c[1], e.details().getString("type"));
      }
      JsonArray row = vertx.eventBus().<JsonObject>request(SqlBus.execute(Driver.POSTGRES),
          SqlBus.queryRequest("nulls", "cast", "SELECT oid::text AS v, CAST('08:00:2b:01:02:03' AS macaddr)::text AS m"
              + " FROM pg_class WHERE relname = 'pg_class'", 10)).await(20, TimeUnit.SECONDS).body()
          .getJsonArray("rows").getJsonArray(0);
      assertEquals(new JsonArray().add("1259").add("08:00:2b:01:02:03"), row);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** An executor with one connection, {@code id}, to the test database. */
  private static void deployExecutor(Vertx vertx, String id) throws Exception {
    ConnectionConfig cfg = new ConnectionConfig(id, Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
        null, null, null, null, 1, 4, 5_000, 100, 1_000);
    vertx.deployVerticle(new dev.sluice.sql.SqlExecutorVerticle(PostgresEngine.INSTANCE, List.of(cfg)))
        .await(20, TimeUnit.SECONDS);
  }

  private static void run(Pool pool, String sql) throws Exception {
    pool.query(sql).execute().await(10, TimeUnit.SECONDS);
  }
}
