package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.Driver;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

class MariaDbCatalogTest extends ServerCatalogContract {

  private final String database = TestDatabases.uniqueName("cat_my");

  @Override
  protected ConnectionConfig setUp(Path dir) throws Exception {
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    admin = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx)
        .build();
    DemoDataset.loadMysql(admin, database).await(3, TimeUnit.MINUTES);
    exec("CREATE TABLE " + qualified("scratch_notes") + " (id INT)");
    // the URL names the demo database, so the scan covers exactly it
    return new ConnectionConfig("db", Driver.MYSQL, TestDatabases.mysqlUrl(database), null, null, null, "demo",
        4, 64, 30_000, 1_000, 10_000);
  }

  @Override
  protected List<String> cleanUp() {
    return List.of("DROP DATABASE IF EXISTS " + database);
  }

  @Override
  protected String namespace() {
    return database;
  }

  @Override
  protected String driver() {
    return "mysql";
  }

  @Override
  protected List<String> engineColumns(String table) throws Exception {
    return informationSchemaColumns("SELECT column_name, is_nullable FROM information_schema.columns"
        + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position", table);
  }

  @Override
  protected List<String> engineForeignKeys(String table) throws Exception {
    return foreignKeys("SELECT column_name, referenced_table_name, referenced_column_name"
        + " FROM information_schema.key_column_usage"
        + " WHERE table_schema = ? AND table_name = ? AND referenced_table_name IS NOT NULL", table);
  }

}
