package dev.sluice.demo;

import dev.sluice.sql.Dialect;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the demo dataset into a SQLite file with plain sqlite-jdbc (blocking: call it from a
 * worker thread).
 *
 * <p>Storage: timestamps are TEXT {@code 'YYYY-MM-DD HH:MM:SS'} in columns declared TIMESTAMP;
 * booleans are 0/1 in columns declared BOOLEAN; JSON is TEXT in columns declared JSON. Exact
 * numerics are declared {@code NUMERIC(p,s)}: SQLite's NUMERIC affinity stores them as INTEGER or
 * REAL whatever the bound type (TEXT would be converted too), and since every demo value has at
 * most 12 significant digits the stored double reads back as the exact decimal when formatted at
 * the declared scale, which is what the SQLite executor does. Arithmetic inside SQLite (SUM of
 * prices) is floating point, so results may need ROUND(x, 2).
 */
final class SqliteDemoWriter {

  static final String FILE_NAME = "demo.sqlite";
  private static final String TEMP_SUFFIX = ".tmp";
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
  private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final int BATCH = 2_000;

  private SqliteDemoWriter() {}

  /** Generates into a temporary file next to {@code file}, then atomically renames it into place. */
  static void write(DemoData data, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, file.getFileName() + ".", TEMP_SUFFIX);
    try {
      fill(data, tmp);
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** {@code <stateDir>/demo.sqlite}, generated only when absent or of another dataset version. */
  static Path ensure(Path stateDir) throws IOException {
    Path file = stateDir.resolve(FILE_NAME);
    if (Files.isRegularFile(file) && version(file) == DemoSchema.VERSION) {
      return file;
    }
    removeStaleTemps(stateDir);
    write(DemoGenerator.generate(), file);
    return file;
  }

  /** {@code PRAGMA user_version} read from the file header, or -1 when it is no SQLite file. */
  static int version(Path file) throws IOException {
    byte[] header = new byte[64];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(header, 0, header.length) < header.length
          || !Arrays.equals(Arrays.copyOf(header, MAGIC.length), MAGIC)) {
        return -1;
      }
    }
    return ((header[60] & 0xff) << 24) | ((header[61] & 0xff) << 16) | ((header[62] & 0xff) << 8) | (header[63] & 0xff);
  }

  private static void fill(DemoData data, Path tmp) throws IOException {
    DemoSql sql = new DemoSql(Dialect.SQLITE, null);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.toAbsolutePath())) {
      try (Statement s = c.createStatement()) {
        // the file is private until the rename, so crash safety comes from the rename, not a journal
        s.execute("PRAGMA journal_mode = OFF");
        s.execute("PRAGMA synchronous = OFF");
        s.execute("PRAGMA foreign_keys = ON");
      }
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        for (DemoTable t : DemoSchema.TABLES) {
          for (String ddl : sql.createTable(t)) {
            s.execute(ddl);
          }
        }
      }
      for (DemoTable t : DemoSchema.TABLES) {
        insert(c, sql, t, data.rows(t));
      }
      c.commit();
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA user_version = " + DemoSchema.VERSION);
        s.execute("ANALYZE");
      }
    } catch (SQLException e) {
      throw new IOException("writing the SQLite demo database failed: " + e.getMessage(), e);
    }
  }

  private static void insert(Connection c, DemoSql sql, DemoTable table, List<Object[]> rows) throws SQLException {
    List<DemoColumn> columns = table.columns();
    try (PreparedStatement ps = c.prepareStatement(sql.insert(table, 1))) {
      int pending = 0;
      for (Object[] row : rows) {
        for (int i = 0; i < columns.size(); i++) {
          bind(ps, i + 1, columns.get(i).type(), row[i]);
        }
        ps.addBatch();
        if (++pending == BATCH) {
          ps.executeBatch();
          pending = 0;
        }
      }
      if (pending > 0) {
        ps.executeBatch();
      }
    }
  }

  private static void bind(PreparedStatement ps, int index, DemoType type, Object v) throws SQLException {
    if (v == null) {
      ps.setNull(index, Types.NULL);
      return;
    }
    switch (type) {
      case INT -> ps.setInt(index, (Integer) v);
      case BIGINT -> ps.setLong(index, (Long) v);
      case TEXT, JSON -> ps.setString(index, (String) v);
      case NUMERIC -> ps.setString(index, ((BigDecimal) v).toPlainString());
      case BOOLEAN -> ps.setInt(index, (Boolean) v ? 1 : 0);
      case TIMESTAMP -> ps.setString(index, ((LocalDateTime) v).format(TIMESTAMP));
    }
  }

  /** Temp files a crashed generation left behind; recent ones may belong to a running generation. */
  private static void removeStaleTemps(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    FileTime cutoff = FileTime.from(Instant.now().minus(Duration.ofMinutes(10)));
    try (DirectoryStream<Path> temps = Files.newDirectoryStream(dir, FILE_NAME + ".*" + TEMP_SUFFIX)) {
      for (Path p : temps) {
        if (Files.getLastModifiedTime(p).compareTo(cutoff) < 0) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
