package dev.sluice.tools;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The catalog contract on a database server reached through a Vert.x admin pool (PostgreSQL, MariaDB). */
abstract class ServerCatalogContract extends CatalogOverMcpContract {

  protected Vertx vertx;
  protected Pool admin;

  /** The statements that remove what the test created, run before the pool closes. */
  protected abstract List<String> cleanUp();

  @Override
  protected final void tearDown() throws Exception {
    if (admin != null) {
      for (String sql : cleanUp()) {
        exec(sql);
      }
      admin.close().await(10, TimeUnit.SECONDS);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Override
  protected void exec(String sql) throws Exception {
    admin.query(sql).execute().await(60, TimeUnit.SECONDS);
  }

  /** Column "name null|not null" lines from information_schema; {@code sql} binds schema then table. */
  protected List<String> informationSchemaColumns(String sql, String table) throws Exception {
    List<String> out = new ArrayList<>();
    for (Row r : admin.preparedQuery(sql).execute(Tuple.of(namespace(), table)).await(10, TimeUnit.SECONDS)) {
      out.add(r.getString(0) + ("YES".equals(r.getString(1)) ? " null" : " not null"));
    }
    return out;
  }

  /** Foreign keys as "column->table.column"; {@code sql} binds schema then table. */
  protected List<String> foreignKeys(String sql, String table) throws Exception {
    List<String> out = new ArrayList<>();
    for (Row r : admin.preparedQuery(sql).execute(Tuple.of(namespace(), table)).await(10, TimeUnit.SECONDS)) {
      out.add(r.getString(0) + "->" + r.getString(1) + "." + r.getString(2));
    }
    return out;
  }
}
