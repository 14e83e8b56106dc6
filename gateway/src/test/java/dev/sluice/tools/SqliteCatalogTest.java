package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.sql.Driver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

class SqliteCatalogTest extends CatalogOverMcpContract {

  private Path db;

  @Override
  protected ConnectionConfig setUp(Path dir) throws Exception {
    db = dir.resolve("shop.sqlite");
    DemoDataset.writeSqlite(db);
    exec("CREATE TABLE scratch_notes (id INTEGER)");
    return new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, "demo", 3, 64, 30_000,
        1_000, 10_000);
  }

  @Override
  protected void tearDown() {
    // the temporary directory holds the file; nothing else to undo
  }

  @Override
  protected String namespace() {
    return "main";
  }

  @Override
  protected String driver() {
    return "sqlite";
  }

  @Override
  protected void exec(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Override
  protected List<String> engineColumns(String table) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
      while (rs.next()) {
        out.add(rs.getString("name") + (rs.getInt("notnull") == 0 ? " null" : " not null"));
      }
    }
    return out;
  }

  @Override
  protected List<String> engineForeignKeys(String table) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA foreign_key_list(\"" + table + "\")")) {
      while (rs.next()) {
        out.add(rs.getString("from") + "->" + rs.getString("table") + "." + rs.getString("to"));
      }
    }
    return out;
  }
}
