package dev.sluice.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Dialect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoSqliteTest {

  @TempDir
  Path dir;

  @Test
  void twoGenerationsHoldIdenticalDataEqualToTheGenerator() throws Exception {
    Path a = dir.resolve("a.sqlite");
    Path b = dir.resolve("b.sqlite");
    long t0 = System.nanoTime();
    DemoDataset.writeSqlite(a);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    DemoDataset.writeSqlite(b);
    System.out.printf("demo SQLite generation: %d ms (%d bytes)%n", ms, Files.size(a));

    Map<String, String> first = checksums(a);
    assertEquals(first, checksums(b));
    assertEquals(DemoChecksum.of(DemoDataset.generate()), first);
  }

  @Test
  void countsAndIntegrityHold() throws Exception {
    Path file = dir.resolve("demo.sqlite");
    DemoDataset.writeSqlite(file);
    try (Connection c = open(file); Statement s = c.createStatement()) {
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (DemoTable t : DemoSchema.TABLES) {
        counts.put(t.name(), count(s, "SELECT COUNT(*) FROM " + t.name()));
      }
      assertEquals(DemoDataset.expectedRowCounts(), counts);
      for (Map.Entry<String, String> q : DemoIntegrity.violationQueries(new DemoSql(Dialect.SQLITE, null)).entrySet()) {
        assertEquals(0, count(s, q.getValue()), q.getKey());
      }
      try (ResultSet rs = s.executeQuery("PRAGMA foreign_key_check")) {
        assertFalse(rs.next(), "foreign key violations");
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
          + "AND name = 'orders' AND sql LIKE '%Order total in EUR%'")) {
        assertTrue(rs.next() && rs.getInt(1) == 1, "column descriptions kept in the DDL");
      }
      try (ResultSet rs = s.executeQuery("SELECT city FROM customers WHERE city = 'São Paulo' LIMIT 1")) {
        assertTrue(rs.next(), "UTF-8 text round trip");
      }
    }
  }

  @Test
  void ensureIsIdempotentAtomicAndVersioned() throws Exception {
    Path state = dir.resolve("state");
    Path file = DemoDataset.ensureSqlite(state);
    assertEquals(state.resolve("demo.sqlite"), file);
    assertEquals(DemoSchema.VERSION, SqliteDemoWriter.version(file));
    FileTime before = Files.getLastModifiedTime(file);
    Thread.sleep(20);
    assertEquals(file, DemoDataset.ensureSqlite(state));
    assertEquals(before, Files.getLastModifiedTime(file), "second ensure must not rewrite");
    assertEquals(List.of(file), list(state), "no temporary files left behind");

    try (Connection c = open(file); Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = " + (DemoSchema.VERSION + 100));
    }
    DemoDataset.ensureSqlite(state);
    assertEquals(DemoSchema.VERSION, SqliteDemoWriter.version(file), "other version regenerated");

    Files.writeString(file, "not a database", StandardCharsets.UTF_8);
    DemoDataset.ensureSqlite(state);
    assertEquals(DemoSchema.VERSION, SqliteDemoWriter.version(file), "corrupt file regenerated");
    assertNotEquals(0, Files.size(file));
    assertEquals(List.of(file), list(state));
  }

  static Map<String, String> checksums(Path file) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    DemoSql sql = new DemoSql(Dialect.SQLITE, null);
    try (Connection c = open(file); Statement s = c.createStatement()) {
      for (DemoTable t : DemoSchema.TABLES) {
        DemoChecksum sum = new DemoChecksum(t);
        try (ResultSet rs = s.executeQuery(sql.selectAll(t))) {
          int n = t.columns().size();
          while (rs.next()) {
            Object[] row = new Object[n];
            for (int i = 0; i < n; i++) {
              row[i] = rs.getObject(i + 1);
            }
            sum.add(row);
          }
        }
        out.put(t.name(), sum.hex());
      }
    }
    return out;
  }

  private static Connection open(Path file) throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
  }

  private static int count(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static List<Path> list(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }
}
