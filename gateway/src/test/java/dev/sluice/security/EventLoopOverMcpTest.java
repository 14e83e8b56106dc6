package dev.sluice.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.testing.McpHttpClient;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Issue 17, "an event-loop blocked-thread check at 100 ms with inputs up to the size cap": the
 * security tests' gateway runs on a Vert.x that checks every 100 ms for an event loop busy with one
 * task for more than 100 ms ({@link #checkedVertx}). This test listens to those warnings and sends
 * statements of the shapes that make the work on the event loop grow (the guard's token scan, the
 * table policy over relations, columns and tokens, request and reply JSON): a huge IN list, a deep
 * OR chain, parentheses nested to the limit, a wide join, thousands of unqualified columns over
 * thousands of relations, a UNION chain, a long literal, each just under
 * {@link SqlAnalyzer#MAX_SQL_CHARS}, and a 1.3 MB statement beyond it, through sql_execution as a
 * governed principal and as the ungoverned one, each on one engine (the engines in turn). No
 * warning about an event loop may be logged.
 *
 * <p>A shared CI machine can stall any thread for 100 ms; a real block repeats with its input. So a
 * statement that draws a warning is sent twice more, and only one that blocks every time fails the
 * test. A deliberately blocked event loop first proves the warnings are captured.
 */
@org.junit.jupiter.api.Tag("serial") // run alone: bounds how long an event loop may be held
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SecurityGateway.Shared.class)
class EventLoopOverMcpTest {

  private static final String CHECKER = "io.vertx.core.impl.BlockedThreadChecker";
  private static final int CAP = SqlAnalyzer.MAX_SQL_CHARS;

  private SecurityGateway sg;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private AppenderBase<ILoggingEvent> appender;

  /**
   * A Vert.x whose checker looks every 100 ms and warns (with the blocked thread's stack) about an
   * event loop that ran one task for more than 100 ms. Its warnings are off until this test listens.
   */
  static Vertx checkedVertx() {
    ((Logger) LoggerFactory.getLogger(CHECKER)).setLevel(Level.OFF);
    return Vertx.vertx(new VertxOptions()
        .setBlockedThreadCheckInterval(100).setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
        .setMaxEventLoopExecuteTime(100).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
        .setWarningExceptionTime(100).setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS));
  }

  @BeforeAll
  void listen() {
    sg = SecurityGateway.Shared.get();
    appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent e) {
        String m = e.getFormattedMessage();
        if (m.contains("vert.x-eventloop-thread")) {
          warnings.add(m + (e.getThrowableProxy() == null ? "" : stack(e)));
        }
      }
    };
    appender.start();
    Logger checker = (Logger) LoggerFactory.getLogger(CHECKER);
    checker.addAppender(appender);
    checker.setLevel(Level.WARN);
  }

  @AfterAll
  void stopListening() {
    Logger checker = (Logger) LoggerFactory.getLogger(CHECKER);
    checker.setLevel(Level.OFF);
    if (appender != null) {
      checker.detachAppender(appender);
    }
  }

  private static String stack(ILoggingEvent e) {
    StringBuilder b = new StringBuilder();
    var frames = e.getThrowableProxy().getStackTraceElementProxyArray();
    for (int i = 0; i < Math.min(12, frames.length); i++) {
      b.append("\n    at ").append(frames[i].getStackTraceElement());
    }
    return b.toString();
  }

  /** {@code piece(i)} joined by {@code sep} after {@code head} while the statement stays under the cap. */
  private static String upToCap(String head, IntFunction<String> piece, String sep, String tail) {
    StringBuilder b = new StringBuilder(head);
    for (int i = 0; ; i++) {
      String p = (i == 0 ? "" : sep) + piece.apply(i);
      if (b.length() + p.length() + tail.length() > CAP) {
        break;
      }
      b.append(p);
    }
    return b.append(tail).toString();
  }

  /** Statement shapes up to the size cap, by name. */
  static Map<String, String> inputs() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("huge IN list", upToCap("SELECT id FROM orders WHERE id IN (", Integer::toString, ", ", ")"));
    m.put("deep OR chain", upToCap("SELECT id FROM orders WHERE ", i -> "id = " + i, " OR ", ""));
    String deep = "(".repeat(SqlAnalyzer.MAX_NESTING - 2) + "1" + ")".repeat(SqlAnalyzer.MAX_NESTING - 2);
    m.put("parentheses nested to the limit", "SELECT " + deep + " AS x, '" + "p".repeat(CAP - deep.length() - 40)
        + "' AS pad");
    // no_such_table: the engine refuses fast, after the policy has read every relation
    m.put("wide join", upToCap("SELECT 1 FROM ", i -> "customers a" + i, ", ", ", no_such_table z"));
    StringBuilder cross = new StringBuilder("SELECT 1 FROM customers a0");
    for (int i = 1; i < 2_200; i++) {
      cross.append(", customers a").append(i);
    }
    cross.append(" WHERE city = 'x'");
    while (cross.length() + 20 < CAP) {
      cross.append(" AND city = 'x'");
    }
    m.put("unqualified columns over many relations", cross.toString());
    m.put("UNION chain", upToCap("", i -> "SELECT id FROM orders WHERE id = " + i, " UNION ALL ", ""));
    m.put("long literal", "SELECT '" + "x".repeat(CAP - 20) + "' AS s");
    m.put("beyond the cap (1.3 MB)", "SELECT id FROM orders WHERE id IN (" + "1, ".repeat(433_000) + "1)");
    return m;
  }

  /** The event-loop warnings drawn by one call. */
  private List<String> blockedBy(McpHttpClient c, String conn, String sql) throws Exception {
    warnings.clear();
    JsonObject response = c.callTool("sql_execution", new JsonObject().put("connectionId", conn).put("sql", sql));
    assertTrue(response.containsKey("result"), "a JSON-RPC error: " + AttackRunner.snippet(response.encode()));
    JsonObject result = response.getJsonObject("result");
    JsonObject s = result.getBoolean("isError", false) ? McpHttpClient.errorBody(result) : new JsonObject();
    assertFalse("internal_error".equals(s.getString("error_type")), AttackRunner.snippet(response.encode()));
    // the checker looks every 100 ms: give it the time to see a block that ended with the call
    Thread.sleep(250);
    return new ArrayList<>(warnings);
  }

  /** Small statements whose answers are huge: one value of 100 MB, or many values of 1 MB. */
  static Map<String, String> hugeResults(String conn) {
    Map<String, String> m = new LinkedHashMap<>();
    switch (conn) {
      case "pg" -> {
        m.put("one 100 MB value", "SELECT repeat('x', 100000000) AS s");
        m.put("200 values of 1 MB", "SELECT repeat('x', 1000000) AS s FROM generate_series(1, 200)");
      }
      case "my" -> {
        m.put("one 100 MB value", "SELECT REPEAT('x', 100000000) AS s");
        m.put("200 values of 1 MB", "SELECT REPEAT('x', 1000000) AS s FROM orders");
      }
      default -> {
        m.put("one 100 MB value", "SELECT printf('%.*c', 100000000, 'x') AS s");
        m.put("200 values of 1 MB", "SELECT printf('%.*c', 1000000, 'x') AS s FROM orders");
      }
    }
    return m;
  }

  @Test
  void noHugeAnswerBlocksAnEventLoop() throws Exception {
    List<String> blocked = new ArrayList<>();
    int calls = 0;
    for (String conn : SecurityGateway.CONNECTIONS) {
      McpHttpClient c = sg.session(SecurityGateway.DEFAULT);
      for (Map.Entry<String, String> in : hugeResults(conn).entrySet()) {
        List<String> seen = List.of();
        for (int attempt = 0; attempt < 3; attempt++) {
          seen = blockedBy(c, conn, in.getValue());
          calls++;
          if (seen.isEmpty()) {
            break;
          }
        }
        if (!seen.isEmpty()) {
          blocked.add(conn + " " + in.getKey() + ", every time: " + seen.get(0));
        }
      }
    }
    AttackRunner.assertNone(blocked, "(event loop blocked > 100 ms by an answer)");
    System.out.println("event loop: huge answers on three engines, " + calls + " calls: no event loop blocked > 100 ms");
  }

  @Test
  void noStatementUpToTheSizeCapBlocksAnEventLoop() throws Exception {
    // the harness sees a block: an event loop held for 400 ms draws a warning
    warnings.clear();
    sg.gw.gateway.vertx().runOnContext(v -> {
      try {
        Thread.sleep(400);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    Thread.sleep(700);
    assertFalse(warnings.isEmpty(), "the blocked-thread warnings are not captured");

    Map<String, String> inputs = inputs();
    List<String> blocked = new ArrayList<>();
    int calls = 0;
    int shape = 0;
    for (Map.Entry<String, String> in : inputs.entrySet()) {
      // the work on the event loop hardly depends on the engine: each shape goes to one engine per
      // principal, the engines in turn, so every engine sees every principal
      List<String[]> runs = List.of(
          new String[] {SecurityGateway.SALES, SecurityGateway.CONNECTIONS.get(shape % 3)},
          new String[] {SecurityGateway.DEFAULT, SecurityGateway.CONNECTIONS.get((shape + 1) % 3)});
      shape++;
      for (String[] run : runs) {
        McpHttpClient c = sg.session(run[0]);
        List<String> seen = List.of();
        for (int attempt = 0; attempt < 3; attempt++) {
          seen = blockedBy(c, run[1], in.getValue());
          calls++;
          if (seen.isEmpty()) {
            break;
          }
        }
        if (!seen.isEmpty()) {
          blocked.add(run[0] + " " + run[1] + " " + in.getKey() + " (" + in.getValue().length() + " chars), every "
              + "time: " + seen.get(0));
        }
      }
    }
    AttackRunner.assertNone(blocked, "(event loop blocked > 100 ms)");
    System.out.println("event loop: " + inputs.size() + " statement shapes (" + (inputs.size() - 1) + " up to " + CAP
        + " chars, one of 1.3 MB) x (sales, default), engines in turn, " + calls + " calls: no event loop blocked "
        + "> 100 ms");
  }
}
