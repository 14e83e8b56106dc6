package dev.sluice.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.SqlError;
import dev.sluice.testing.Analysis;
import org.junit.jupiter.api.Test;

class WriteGuardTest {

  private static WriteGuard.Write write(Dialect d, String sql) {
    return WriteGuard.check(Analysis.of(d, sql));
  }

  private static String refused(Dialect d, String sql) {
    SqlError e = assertThrows(SqlError.class, () -> write(d, sql), sql);
    return e.details().getString("rule");
  }

  @Test
  void writesAreClassifiedAndDestructiveOnesFlagged() {
    WriteGuard.Write u = write(Dialect.POSTGRES, "UPDATE s.items SET qty = 0;");
    assertEquals("update", u.kind());
    assertEquals("s.items", u.table());
    assertTrue(u.destructive());
    assertFalse(write(Dialect.POSTGRES, "UPDATE items SET qty = 0 WHERE id = 1").destructive());
    assertTrue(write(Dialect.MYSQL, "DELETE FROM items").destructive());
    assertFalse(write(Dialect.MYSQL, "DELETE FROM items WHERE id > 3").destructive());
    assertTrue(write(Dialect.POSTGRES, "TRUNCATE items").destructive());
    assertTrue(write(Dialect.POSTGRES, "DROP TABLE items").destructive());
    assertFalse(write(Dialect.POSTGRES,
        "INSERT INTO items VALUES (1, 2) ON CONFLICT (id) DO UPDATE SET qty = 3").destructive());
    assertEquals("create", write(Dialect.MYSQL, "CREATE TABLE t (id int)").kind());
    assertEquals("alter", write(Dialect.POSTGRES, "ALTER TABLE t ADD COLUMN c int").kind());
  }

  @Test
  void hostReachingAndNonWritesStayRefused() {
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "COPY items TO PROGRAM 'rm -rf /'"));
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "ALTER SYSTEM SET work_mem = '1GB'"));
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "SET statement_timeout = 0"));
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "DO $$ BEGIN PERFORM 1; END $$"));
    assertEquals("host_reaching", refused(Dialect.MYSQL, "LOAD DATA INFILE '/etc/passwd' INTO TABLE t"));
    assertEquals("host_reaching", refused(Dialect.MYSQL, "SELECT * FROM t INTO OUTFILE '/tmp/x'"));
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "GRANT ALL ON items TO public"));
    assertEquals("host_reaching", refused(Dialect.POSTGRES, "COMMIT"));
    assertEquals("forbidden_function", refused(Dialect.POSTGRES, "INSERT INTO t SELECT pg_read_file('/etc/passwd')"));
    assertEquals("multiple_statements", refused(Dialect.POSTGRES, "DELETE FROM t WHERE id = 1; DROP TABLE t"));
    assertEquals("not_a_write", refused(Dialect.POSTGRES, "SELECT 1"));
  }
}
