package dev.sluice.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17, "a mutation test that wraps known write payloads in each dialect's quote, comment and
 * escape forms": every combination of an opener (a statement start that leaves a quote, comment or
 * escape open to one reader and closed to another), a closer-and-separator, a write payload and a
 * suffix goes through sql_execution and sql_explain (analyze: true) as the ungoverned principal on
 * the engines' superuser connections. Whether the gateway refuses a text or runs it as the
 * harmless statement the engine reads, nothing may change: checksums, relations, sequences, locks
 * and files are compared before and after, and no answer may be a JSON-RPC error or an
 * internal_error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SecurityGateway.Shared.class)
class MutationOverMcpTest {

  private static final List<String> PAYLOADS = List.of("DELETE FROM orders", "DROP TABLE orders",
      "uPdAtE orders SET total = 0", "INSERT INTO orders VALUES (999, 1, 'x', 1)", "CREATE TABLE pwn_mut (id INT)");

  /**
   * Openers: a statement start that leaves a quote, comment or escape open to one reader and closed
   * to another. Every dialect gets the common ones, then its own.
   */
  private static final List<String> OPENERS = List.of("SELECT 1", "SELECT 'a\\'", "SELECT 'a'''", "SELECT 1 --",
      "SELECT 1 /*", "EXPLAIN SELECT 1");
  private static final Map<String, List<String>> DIALECT_OPENERS = Map.of(
      "pg", List.of("SELECT E'\\''", "SELECT $$", "SELECT U&'\\0027'", "SELECT 1 /* /* */", "SELECT \"a\\\""),
      "my", List.of("SELECT 1 #", "SELECT 1 --x", "SELECT 1 /*!", "SELECT 1 /*M!", "SELECT \"a\\\"",
          "SELECT _binary'\\''", "SELECT `a"),
      "lite", List.of("SELECT [a", "SELECT `a", "SELECT \"a\\\"", "SELECT 1 #"));
  /** Closers and separators every dialect gets, then each dialect's own quote closers. */
  private static final List<String> CLOSERS = List.of(";", "\r;", "\n;", "*/;", "';");
  private static final Map<String, List<String>> DIALECT_CLOSERS = Map.of("pg", List.of("$$;"),
      "my", List.of("`;", "\";"), "lite", List.of("];", "`;"));
  private static final List<String> SUFFIXES = List.of("", " -- '");

  private SecurityGateway sg;

  @BeforeAll
  void start() throws Exception {
    sg = SecurityGateway.Shared.get();
  }

  static List<Attacks.Attack> mutations(String conn) {
    Set<String> texts = new LinkedHashSet<>();
    List<String> openers = new ArrayList<>(OPENERS);
    openers.addAll(DIALECT_OPENERS.get(conn));
    List<String> closers = new ArrayList<>(CLOSERS);
    closers.addAll(DIALECT_CLOSERS.get(conn));
    for (String opener : openers) {
      for (String closer : closers) {
        for (String payload : PAYLOADS) {
          for (String suffix : SUFFIXES) {
            texts.add(opener + closer + " " + payload + suffix);
          }
        }
      }
    }
    List<Attacks.Attack> out = new ArrayList<>();
    int i = 0;
    for (String t : texts) {
      out.add(new Attacks.Attack("mutation", conn + "#" + i++, Attacks.Expect.ANY, t));
    }
    return out;
  }

  private void mutate(String conn) throws Exception {
    List<Attacks.Attack> attacks = mutations(conn);
    Map<String, Map<String, String>> before = sg.shop.state();
    AttackRunner runner = new AttackRunner(sg);
    List<AttackRunner.Tool> tools = List.of(AttackRunner.Tool.EXECUTION, AttackRunner.Tool.EXPLAIN_ANALYZE);
    runner.run(conn, List.of(SecurityGateway.DEFAULT), attacks, tools);
    assertEquals(before, sg.shop.state(), "a wrapped write changed something on " + conn);
    AttackRunner.assertNone(runner.problems(), "on " + conn);
    System.out.println(String.format("%s: %d wrapped writes x 2 tools (sql_execution, sql_explain analyze), "
        + "%d calls, %d ran as the harmless statement the engine reads, data unchanged", AttackRunner.engine(conn),
        attacks.size(), runner.calls(), runner.ran(conn)));
  }

  @Test
  void postgresWrappedWritesChangeNothing() throws Exception {
    mutate("pg");
  }

  @Test
  void mariadbWrappedWritesChangeNothing() throws Exception {
    mutate("my");
  }

  @Test
  void sqliteWrappedWritesChangeNothing() throws Exception {
    mutate("lite");
  }
}
