package dev.sluice.security;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A small shop with secrets, loaded on all three engines as their superuser for one test class: a
 * PostgreSQL database and a MariaDB database of their own (unqualified names reach them, as an
 * agent would write them) and a SQLite file in a fresh directory, reachable as connections "pg",
 * "my" and "lite". {@code payments} (card numbers) and {@code customers.email} are what the
 * governed principals must never see; every value of them carries a marker ({@link #EMAIL_MARK},
 * {@link #CARD_MARK}) that appears nowhere else, so a leak shows in any answer text.
 *
 * <p>{@link #state()} is everything an attack could change, read on the superuser connections:
 * a checksum of every table, the list of relations, sequences, large objects, roles and
 * databases, advisory and user locks, the SQLite file's bytes and its directory, and whether any
 * file named with {@link #outPrefix} exists.
 */
final class AdversarialShop implements AutoCloseable {

  static final String EMAIL_MARK = "hidden-mail.example";
  static final String CARD_MARK = "4929-1111-2222";
  /** Denied names: the table, its column, the views over it and the column the governed principals may not see. */
  static final List<String> DENIED_NAMES = List.of("payments", "card_number", "email", "v_pay", "v_cards");
  /** The advisory lock key (PostgreSQL) and user lock name (MariaDB) the attacks try to take. */
  static final long LOCK_KEY = 871234;
  static final String LOCK_NAME = "sluice_adv_lock";

  final String pgDatabase;
  final String myDatabase;
  /** The state directory of the test's gateway; the SQLite file lives in its own subdirectory. */
  final Path dir;
  final Path sqlite;
  /** Files an attack might write start with this (COPY TO, INTO OUTFILE, VACUUM INTO, ATTACH). */
  final String outPrefix;
  private final Vertx vertx;
  private final Pool pgAdmin;
  private final Pool pg;
  private final Pool my;

  private AdversarialShop(String prefix) throws Exception {
    TestDatabases.requirePostgres();
    TestDatabases.requireMysql();
    pgDatabase = TestDatabases.uniqueName(prefix + "_pg");
    myDatabase = TestDatabases.uniqueName(prefix + "_my");
    dir = Files.createTempDirectory("sluice-" + prefix);
    sqlite = Files.createDirectories(dir.resolve("db")).resolve("shop.sqlite");
    outPrefix = "/tmp/" + TestDatabases.uniqueName("sluice_pwn_" + prefix);
    vertx = Vertx.vertx();
    pgAdmin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    await(pgAdmin.query("CREATE DATABASE " + pgDatabase).execute());
    pg = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(pgDatabase)).using(vertx).build();
    my = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    await(my.query("CREATE DATABASE " + myDatabase).execute());
    for (String ddl : ddl("pg")) {
      await(pg.query(ddl).execute());
    }
    for (String ddl : ddl("my")) {
      await(my.query(ddl.replace("CREATE TABLE ", "CREATE TABLE " + myDatabase + ".")
          .replace("CREATE VIEW ", "CREATE VIEW " + myDatabase + ".")
          .replace("CREATE SEQUENCE ", "CREATE SEQUENCE " + myDatabase + ".")
          .replace("INSERT INTO ", "INSERT INTO " + myDatabase + ".")
          .replace(" FROM ", " FROM " + myDatabase + ".")).execute());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
      for (String ddl : ddl("lite")) {
        st.execute(ddl);
      }
    }
  }

  static AdversarialShop load(String prefix) throws Exception {
    return new AdversarialShop(prefix);
  }

  /** The schema and data, in one engine's spelling. */
  private static List<String> ddl(String engine) {
    String num = engine.equals("lite") ? "NUMERIC" : "DECIMAL(10,2)";
    List<String> out = new ArrayList<>(List.of(
        "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(80), email VARCHAR(120), city VARCHAR(40))",
        "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, status VARCHAR(20), total " + num + ")",
        "CREATE TABLE payments (id INT PRIMARY KEY, order_id INT, card_number VARCHAR(40), amount " + num
            + ", method VARCHAR(20))",
        "CREATE VIEW v_pay AS SELECT id, card_number, amount FROM payments",
        // named by no rule: hidden because of what it reads
        "CREATE VIEW v_cards AS SELECT order_id, card_number FROM payments",
        "CREATE VIEW v_orders AS SELECT id, status, total FROM orders"));
    if (!engine.equals("lite")) {
      out.add("CREATE SEQUENCE adv_seq");
    }
    String[] cities = {"Berlin", "Paris", "Lisbon", "Oslo"};
    String[] statuses = {"paid", "shipped", "pending"};
    StringBuilder customers = new StringBuilder("INSERT INTO customers VALUES ");
    for (int i = 1; i <= 12; i++) {
      customers.append(i > 1 ? ", " : "").append("(").append(i).append(", 'Customer ").append(i).append("', 'c")
          .append(i).append(".zq@").append(EMAIL_MARK).append("', '").append(cities[i % 4]).append("')");
    }
    StringBuilder orders = new StringBuilder("INSERT INTO orders VALUES ");
    StringBuilder payments = new StringBuilder("INSERT INTO payments VALUES ");
    for (int i = 1; i <= 30; i++) {
      orders.append(i > 1 ? ", " : "").append("(").append(i).append(", ").append(1 + i % 12).append(", '")
          .append(statuses[i % 3]).append("', ").append(10 * i).append(".50)");
      payments.append(i > 1 ? ", " : "").append("(").append(i).append(", ").append(i).append(", '")
          .append(CARD_MARK).append(String.format("-%04d", i)).append("', ").append(10 * i).append(".50, '")
          .append(i % 2 == 0 ? "card" : "paypal").append("')");
    }
    out.add(customers.toString());
    out.add(orders.toString());
    out.add(payments.toString());
    return out;
  }

  /** lite, pg and my as the superuser, with this deadline. */
  List<ConnectionConfig> connections(int deadlineMs) {
    return List.of(
        new ConnectionConfig("lite", Driver.SQLITE, null, sqlite.toString(), null, null, null, 3, 1_024, deadlineMs,
            1_000, 10_000),
        new ConnectionConfig("pg", Driver.POSTGRES, TestDatabases.pgUrl(pgDatabase), null, null, null, null, 4, 1_024,
            deadlineMs, 1_000, 10_000),
        new ConnectionConfig("my", Driver.MYSQL, TestDatabases.mysqlUrl(myDatabase), null, null, null, null, 4, 1_024,
            deadlineMs, 1_000, 10_000));
  }

  /** Everything an attack could have changed, by connection; equal before and after means nothing did. */
  Map<String, Map<String, String>> state() throws Exception {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    out.put("pg", pgState());
    out.put("my", myState());
    out.put("lite", liteState());
    return out;
  }

  private Map<String, String> pgState() throws Exception {
    Map<String, String> s = new TreeMap<>();
    for (Row r : await(pg.query("SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n "
        + "ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') "
        + "AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%' ORDER BY 1, 2").execute())) {
      String name = r.getString(0) + "." + r.getString(1);
      String kind = r.getValue(2).toString();
      s.put("relation " + name, kind);
      if (kind.equals("r")) {
        Row sum = await(pg.query("SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM "
            + r.getString(0) + "." + r.getString(1) + " t").execute()).iterator().next();
        s.put("table " + name, sum.getLong(0) + " " + sum.getString(1));
      }
    }
    s.put("sequence adv_seq", String.valueOf(await(pg.query("SELECT last_value, is_called FROM adv_seq").execute())
        .iterator().next().toJson()));
    s.put("large objects", one(pg, "SELECT count(*) FROM pg_largeobject_metadata"));
    s.put("pwn roles", one(pg, "SELECT count(*) FROM pg_roles WHERE rolname LIKE 'pwn%'"));
    s.put("pwn databases", one(pg, "SELECT count(*) FROM pg_database WHERE datname LIKE 'pwn%'"));
    s.put("pwn tables in any schema", one(pgAdmin, "SELECT count(*) FROM pg_class WHERE relname LIKE 'pwn%'"));
    s.put("advisory locks", one(pg, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = "
        + LOCK_KEY));
    s.put("prepared transactions", one(pg, "SELECT count(*) FROM pg_prepared_xacts WHERE database = '"
        + pgDatabase + "'"));
    s.put("auto.conf settings", one(pg, "SELECT count(*) FROM pg_file_settings WHERE sourcefile LIKE "
        + "'%postgresql.auto.conf'"));
    s.put("database settings", one(pg, "SELECT count(*) FROM pg_db_role_setting"));
    return s;
  }

  private Map<String, String> myState() throws Exception {
    Map<String, String> s = new TreeMap<>();
    for (Row r : await(my.query("SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE "
        + "table_schema = '" + myDatabase + "' OR table_name LIKE 'pwn%' ORDER BY 1, 2").execute())) {
      String name = r.getString(0) + "." + r.getString(1);
      s.put("relation " + name, r.getString(2));
      if (r.getString(2).equals("BASE TABLE")) {
        Row sum = await(my.query("CHECKSUM TABLE " + name + " EXTENDED").execute()).iterator().next();
        s.put("table " + name, String.valueOf(sum.getValue(1)));
      }
    }
    s.put("sequence adv_seq", one(my, "SELECT next_not_cached_value FROM " + myDatabase + ".adv_seq"));
    s.put("pwn databases", one(my, "SELECT count(*) FROM information_schema.schemata WHERE schema_name LIKE 'pwn%'"));
    s.put("pwn users", one(my, "SELECT count(*) FROM mysql.user WHERE user LIKE 'pwn%'"));
    s.put("user lock", one(my, "SELECT IS_USED_LOCK('" + LOCK_NAME + "')"));
    s.put("globals", one(my, "SELECT CONCAT_WS(',', @@global.read_only, @@global.general_log, "
        + "@@global.max_statement_time, @@global.sql_mode, @@global.event_scheduler)"));
    return s;
  }

  private Map<String, String> liteState() throws Exception {
    Map<String, String> s = new TreeMap<>();
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(sqlite));
    s.put("file sha256", HexFormat.of().formatHex(digest));
    try (Stream<Path> files = Files.list(sqlite.getParent())) {
      s.put("directory", files.map(p -> p.getFileName().toString()).sorted().toList().toString());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + sqlite + "?mode=ro");
        ResultSet r = c.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE name LIKE 'pwn%'")) {
      s.put("pwn objects", r.next() ? r.getString(1) : "none");
    }
    Path tmp = Path.of(outPrefix).getParent();
    String name = Path.of(outPrefix).getFileName().toString();
    try (Stream<Path> files = Files.list(tmp)) {
      s.put("files written by attacks", files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith(name))
          .sorted().toList().toString());
    }
    return s;
  }

  /** Runs one statement as the superuser: "pg" in the scratch database, "my" with names qualified by myDatabase. */
  List<Row> admin(String connection, String sql) throws Exception {
    List<Row> rows = new ArrayList<>();
    await((connection.equals("pg") ? pg : my).query(sql).execute()).forEach(rows::add);
    return rows;
  }

  private static String one(Pool p, String sql) throws Exception {
    return String.valueOf(await(p.query(sql).execute()).iterator().next().getValue(0));
  }

  private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
    return f.await(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    try {
      pg.close().await(10, TimeUnit.SECONDS);
      await(pgAdmin.query("DROP DATABASE IF EXISTS " + pgDatabase + " WITH (FORCE)").execute());
      await(my.query("DROP DATABASE IF EXISTS " + myDatabase).execute());
      try (Stream<Path> files = Files.list(Path.of(outPrefix).getParent())) {
        for (Path p : files.filter(f -> f.getFileName().toString().startsWith(Path.of(outPrefix).getFileName()
            .toString())).toList()) {
          Files.deleteIfExists(p);
        }
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
