package dev.sluice.security;

import dev.sluice.engine.Engines;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.SqlDialect;
import dev.sluice.sql.analysis.SqlLexer;
import dev.sluice.sql.analysis.Token;
import dev.sluice.testing.McpHttpClient;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends attacks through every tool that runs SQL and checks each answer: a JSON-RPC result (never
 * a JSON-RPC error), an in-band tool error with an {@code error_type} for a statement that must be
 * refused, never {@code internal_error}, and for a governed principal no denied name or value
 * anywhere in the response body unless the attack itself wrote it. Calls run on a few threads,
 * each with its own session.
 */
final class AttackRunner {

  /** Every way an agent's text reaches an engine. */
  enum Tool {
    EXECUTION, EXPLAIN, EXPLAIN_ANALYZE, COMPARE_BASELINE, COMPARE_CANDIDATE, APPROVED;

    /** Tools where the attack is the statement itself (approved queries take it as a value). */
    boolean statement() {
      return this != APPROVED;
    }
  }

  static final List<Tool> ALL_TOOLS = List.of(Tool.values());
  static final String BENIGN = "SELECT 1 AS x";
  private static final int THREADS = 4;

  private final SecurityGateway sg;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger calls = new AtomicInteger();
  private final Map<String, AtomicInteger> refusedByEngine = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> attacksByEngine = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> ranByEngine = new ConcurrentHashMap<>();

  AttackRunner(SecurityGateway sg) {
    this.sg = sg;
  }

  List<String> problems() {
    return problems;
  }

  int calls() {
    return calls.get();
  }

  /** Statement-tool calls on {@code conn} that ran instead of being refused. */
  int ran(String conn) {
    return ranByEngine.getOrDefault(conn, new AtomicInteger()).get();
  }

  /** Runs every attack as every principal on one connection through the tools; returns the problems found. */
  void run(String conn, List<String> principals, List<Attacks.Attack> attacks, List<Tool> tools) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    ThreadLocal<Map<String, McpHttpClient>> sessions = ThreadLocal.withInitial(java.util.HashMap::new);
    List<Future<?>> all = new ArrayList<>();
    try {
      for (String principal : principals) {
        for (Attacks.Attack attack : attacks) {
          all.add(pool.submit(() -> {
            McpHttpClient c = sessions.get().computeIfAbsent(principal, p -> {
              try {
                return sg.session(p);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
            for (Tool tool : tools) {
              one(c, principal, conn, attack, tool);
            }
            return null;
          }));
        }
      }
      for (Future<?> f : all) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    attacksByEngine.computeIfAbsent(conn, k -> new AtomicInteger()).addAndGet(attacks.size());
  }

  private void one(McpHttpClient c, String principal, String conn, Attacks.Attack attack, Tool tool) {
    String where = principal + " " + conn + " " + tool + " " + attack;
    try {
      if (tool == Tool.APPROVED) {
        for (String id : SecurityGateway.APPROVED) {
          JsonObject response = c.callTool("execute_approved_query", new JsonObject().put("queryId", conn + "_" + id)
              .put("parameters", new JsonObject().put("v", attack.sql())));
          calls.incrementAndGet();
          check(where + " " + id, principal, conn, attack, response, false);
        }
        return;
      }
      JsonObject args = new JsonObject().put("connectionId", conn);
      String name = switch (tool) {
        case EXECUTION -> "sql_execution";
        case EXPLAIN, EXPLAIN_ANALYZE -> "sql_explain";
        default -> "sql_compare";
      };
      switch (tool) {
        case EXECUTION -> args.put("sql", attack.sql()).put("maxRows", 5);
        case EXPLAIN -> args.put("sql", attack.sql());
        case EXPLAIN_ANALYZE -> args.put("sql", attack.sql()).put("analyze", true);
        case COMPARE_BASELINE -> args.put("baselineSql", attack.sql()).put("candidateSql", BENIGN);
        case COMPARE_CANDIDATE -> args.put("baselineSql", BENIGN).put("candidateSql", attack.sql());
        default -> throw new IllegalStateException();
      }
      JsonObject response = c.callTool(name, args);
      calls.incrementAndGet();
      boolean mustRefuse = attack.expect() == Attacks.Expect.REFUSE;
      boolean mustRun = attack.expect() == Attacks.Expect.OK
          && (tool == Tool.EXECUTION || tool == Tool.COMPARE_BASELINE || tool == Tool.COMPARE_CANDIDATE);
      JsonObject result = check(where, principal, conn, attack, response, mustRefuse);
      if (result != null && mustRun && result.getBoolean("isError", false)) {
        problems.add(where + ": a control statement was refused: " + snippet(response.encode()));
      }
      if (result != null && mustRefuse && result.getBoolean("isError", false)) {
        refusedByEngine.computeIfAbsent(conn, k -> new AtomicInteger()).incrementAndGet();
      }
      if (result != null && !result.getBoolean("isError", false)) {
        ranByEngine.computeIfAbsent(conn, k -> new AtomicInteger()).incrementAndGet();
      }
    } catch (Exception e) {
      problems.add(where + ": the call failed: " + e);
    }
  }

  /** Checks one JSON-RPC response; returns its result (null when there is none). */
  private JsonObject check(String where, String principal, String conn, Attacks.Attack attack, JsonObject response,
      boolean mustRefuse) {
    String body = response.encode();
    JsonObject result = response.getJsonObject("result");
    if (result == null) {
      problems.add(where + ": a JSON-RPC error instead of a tool result: " + snippet(body));
      return null;
    }
    boolean isError = result.getBoolean("isError", false);
    JsonObject s = isError ? dev.sluice.testing.McpHttpClient.errorBody(result) : null;
    String type = s == null ? null : s.getString("error_type");
    if (isError && (type == null || type.isBlank())) {
      problems.add(where + ": a tool error without error_type: " + snippet(body));
    }
    if ("internal_error".equals(type)) {
      problems.add(where + ": internal_error: " + snippet(body));
    }
    if (mustRefuse && !isError) {
      problems.add(where + ": RAN (must be refused): " + snippet(body));
    }
    if (SecurityGateway.governed(principal)) {
      for (String leak : leaks(body, attack.sql(), conn)) {
        problems.add(where + ": LEAK of '" + leak + "': " + snippet(body));
      }
    }
    return result;
  }

  /**
   * The denied names and values in {@code body} that the attack did not write itself (as written
   * or as the engine's lexer decodes it, e.g. a U&amp; escape).
   */
  static List<String> leaks(String body, String attack, String conn) {
    String lowerBody = body.toLowerCase(Locale.ROOT);
    String wrote = (attack + " " + decoded(attack, conn)).toLowerCase(Locale.ROOT);
    List<String> out = new ArrayList<>();
    for (String name : AdversarialShop.DENIED_NAMES) {
      if (lowerBody.contains(name) && !wrote.contains(name)) {
        out.add(name);
      }
    }
    for (String value : List.of(AdversarialShop.EMAIL_MARK, AdversarialShop.CARD_MARK)) {
      List<String> forms = List.of(value.toLowerCase(Locale.ROOT), value.replace("-", ""),
          HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8)));
      for (String form : forms) {
        if (lowerBody.contains(form) && !wrote.contains(form)) {
          out.add(form);
        }
      }
    }
    return out;
  }

  private static String decoded(String sql, String conn) {
    Driver d = switch (conn) {
      case "pg" -> Driver.POSTGRES;
      case "my" -> Driver.MYSQL;
      default -> Driver.SQLITE;
    };
    SqlDialect dialect = Engines.of(d).dialect();
    StringBuilder b = new StringBuilder();
    for (Token t : SqlLexer.lex(dialect.lexRules(), sql).tokens()) {
      b.append(t.value()).append(' ');
    }
    return b.toString();
  }

  /** Fails with the first problems; every problem goes to the test's output first. */
  static void assertNone(List<String> problems, String where) {
    if (problems.isEmpty()) {
      return;
    }
    List<String> sorted = new ArrayList<>(problems);
    Collections.sort(sorted);
    sorted.forEach(p -> System.out.println("PROBLEM " + p));
    throw new AssertionError(sorted.size() + " problems " + where + ":\n"
        + String.join("\n", sorted.subList(0, Math.min(40, sorted.size()))));
  }

  static String snippet(String body) {
    return body.length() > 600 ? body.substring(0, 600) + "..." : body;
  }

  /** One line per engine: how many attacks, through how many tools, how many refusals. */
  String summary(String conn, int tools, String what) {
    return String.format("%s: %d attacks x %d tools, %d refusals, %s", engine(conn),
        attacksByEngine.getOrDefault(conn, new AtomicInteger()).get(), tools,
        refusedByEngine.getOrDefault(conn, new AtomicInteger()).get(), what);
  }

  static String engine(String conn) {
    return switch (conn) {
      case "pg" -> "postgres";
      case "my" -> "mariadb";
      default -> "sqlite";
    };
  }
}
