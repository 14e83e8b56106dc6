package dev.sluice.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.McpHttpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17, "table/column policy leaks", for the two governed principals ({@code sales}: all but
 * payments and customers.email; {@code support}: only customers and orders, no *.email) on all
 * three engines. Each engine's corpus ({@code security/<engine>-leaks.txt}: whole-row references,
 * TABLE, DISTINCT ON / SQL_NO_CACHE / STRAIGHT_JOIN stars, NATURAL JOIN / USING, CTE and alias
 * scoping, quoted and single-quoted names, functions that read tables named in strings, catalog
 * functions, relations, casts and PRAGMAs, SHOW behind comments, misspellings that invite "did you
 * mean" suggestions) goes through every tool that runs SQL; then the catalog tools are asked
 * directly. No answer may carry a denied table, column or value the caller did not write itself,
 * and every refusal is an in-band tool error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SecurityGateway.Shared.class)
class PolicyLeaksOverMcpTest {

  private static final List<String> GOVERNED = List.of(SecurityGateway.SALES, SecurityGateway.SUPPORT);
  private SecurityGateway sg;
  private Map<String, String> vars;

  @BeforeAll
  void start() throws Exception {
    sg = SecurityGateway.Shared.get();
    vars = Map.of("MYDB", sg.shop.myDatabase);
  }

  private void corpus(String conn, String resource) throws Exception {
    Map<String, Map<String, String>> before = sg.shop.state();
    AttackRunner runner = new AttackRunner(sg);
    runner.run(conn, GOVERNED, Attacks.load(resource, vars).list(), AttackRunner.ALL_TOOLS);
    assertEquals(before, sg.shop.state(), "data changed on " + conn);
    AttackRunner.assertNone(runner.problems(), "on " + conn);
    System.out.println(runner.summary(conn, AttackRunner.ALL_TOOLS.size(), "2 governed principals, " + runner.calls()
        + " calls, refused where required, no denied name or value in any answer"));
  }

  @Test
  void postgresStatementsReachNothingThePolicyHides() throws Exception {
    corpus("pg", "postgres-leaks.txt");
  }

  @Test
  void mariadbStatementsReachNothingThePolicyHides() throws Exception {
    corpus("my", "mysql-leaks.txt");
  }

  @Test
  void sqliteStatementsReachNothingThePolicyHides() throws Exception {
    corpus("lite", "sqlite-leaks.txt");
  }

  /** One tool call as a governed principal; the answer may name only what {@code wrote} names. */
  private JsonObject call(McpHttpClient c, String conn, String tool, JsonObject args, String wrote,
      List<String> problems) throws Exception {
    JsonObject response = c.callTool(tool, args);
    String body = response.encode();
    JsonObject result = response.getJsonObject("result");
    String where = tool + " " + conn + " " + args.encode();
    if (result == null) {
      problems.add(where + ": JSON-RPC error " + AttackRunner.snippet(body));
      return new JsonObject();
    }
    JsonObject s = result.getBoolean("isError", false) ? McpHttpClient.errorBody(result) : new JsonObject();
    if (result.getBoolean("isError", false) && (s.getString("error_type") == null
        || "internal_error".equals(s.getString("error_type")))) {
      problems.add(where + ": error without a proper error_type " + AttackRunner.snippet(body));
    }
    for (String leak : AttackRunner.leaks(body, wrote, conn)) {
      problems.add(where + ": LEAK of '" + leak + "': " + AttackRunner.snippet(body));
    }
    return result;
  }

  @Test
  void catalogToolsAnswerTheAllowedPartAndHideTheRest() throws Exception {
    List<String> problems = new ArrayList<>();
    int calls = 0;
    for (String principal : GOVERNED) {
      McpHttpClient c = sg.session(principal);
      for (String conn : SecurityGateway.CONNECTIONS) {
        String schema = conn.equals("pg") ? "public" : conn.equals("my") ? sg.shop.myDatabase : "main";
        // entity_details: one denied and one allowed table answers the allowed one
        JsonObject mixed = call(c, conn, "entity_details", new JsonObject().put("connectionId", conn)
            .put("entities", new JsonArray().add(new JsonObject().put("table", "customers"))
                .add(new JsonObject().put("table", "payments"))), "customers payments", problems);
        calls++;
        JsonObject s = mixed.getJsonObject("structuredContent", new JsonObject());
        if (mixed.getBoolean("isError", true) || s.getJsonArray("entities", new JsonArray()).size() != 1
            || !"table_not_found".equals(s.getJsonArray("errors", new JsonArray()).getJsonObject(0)
                .getString("error_type"))) {
          problems.add(principal + " " + conn + ": entity_details [customers, payments] must answer customers and "
              + "report payments as not found: " + AttackRunner.snippet(mixed.encode()));
        }
        for (JsonArray entities : List.of(
            new JsonArray().add(new JsonObject().put("table", "payments")),
            new JsonArray().add(new JsonObject().put("table", "PAYMENTS")),
            new JsonArray().add(new JsonObject().put("table", schema + ".payments")),
            new JsonArray().add(new JsonObject().put("table", new JsonObject().put("schema", schema)
                .put("table", "payments"))),
            new JsonArray().add(new JsonObject().put("table", "v_pay")).add(new JsonObject().put("table", "orders")),
            new JsonArray().add(new JsonObject().put("table", "paymnts")),
            new JsonArray().add(new JsonObject().put("table", "customers").put("columns", new JsonArray().add("emai")
                .add("city"))))) {
          call(c, conn, "entity_details", new JsonObject().put("connectionId", conn).put("entities", entities),
              entities.encode(), problems);
          calls++;
        }
        // discover_data: neither the denied table, its columns, the view over it nor the denied column
        for (String q : List.of("card number payment", "customer e-mail address", "v pay", "hidden mail", "amount")) {
          call(c, conn, "discover_data", new JsonObject().put("query", q).put("connectionId", conn).put("limit", 50),
              q, problems);
          calls++;
        }
        // asked by the hidden names themselves: the caller wrote them, so no ref may carry them
        for (String q : List.of("email", "payments card_number", "v_pay v_cards")) {
          JsonObject found = call(c, conn, "discover_data", new JsonObject().put("query", q).put("connectionId", conn)
              .put("limit", 50), q, problems);
          calls++;
          for (Object o : found.getJsonObject("structuredContent", new JsonObject()).getJsonArray("refs",
              new JsonArray())) {
            JsonObject ref = (JsonObject) o;
            String id = ref.getString("id", "") + " " + ref.getString("snippet", "");
            if (AdversarialShop.DENIED_NAMES.stream().anyMatch(id::contains)) {
              problems.add(principal + " " + conn + ": discover_data '" + q + "' found a hidden ref " + ref.encode());
            }
          }
        }
        // dictionary_search never matches a value of a hidden column
        String email = "c1.zq@" + AdversarialShop.EMAIL_MARK;
        String card = AdversarialShop.CARD_MARK + "-0001";
        JsonArray values = new JsonArray().add(email).add(card).add("paypal").add("zq@").add("Berlin");
        JsonObject dict = call(c, conn, "dictionary_search", new JsonObject().put("connectionId", conn)
            .put("values", values), values.encode(), problems);
        calls++;
        JsonArray results = dict.getJsonObject("structuredContent", new JsonObject()).getJsonArray("results",
            new JsonArray());
        for (int i = 0; i < results.size(); i++) {
          JsonArray matches = results.getJsonObject(i).getJsonArray("matches", new JsonArray());
          if (i < 4 && !matches.isEmpty()) {
            problems.add(principal + " " + conn + ": dictionary_search matched a hidden value " + values.getValue(i)
                + ": " + matches.encode());
          }
          if (i == 4 && matches.isEmpty()) {
            problems.add(principal + " " + conn + ": dictionary_search no longer finds Berlin: " + dict.encode());
          }
        }
        // the semantic layer: sources over hidden tables and fields over hidden columns do not exist
        for (String source : List.of("payments", "customers", "orders", "paymnts", "Payments")) {
          call(c, conn, "sl_read_source", new JsonObject().put("connectionId", conn).put("source", source), source,
              problems);
          calls++;
        }
        for (JsonObject q : List.of(
            new JsonObject().put("measures", new JsonArray().add("customers.customer_count"))
                .put("dimensions", new JsonArray().add("customers.emial")),
            new JsonObject().put("measures", new JsonArray().add("customers.customer_count"))
                .put("dimensions", new JsonArray().add("customers.email")),
            new JsonObject().put("measures", new JsonArray().add("payments.amount_paid")),
            new JsonObject().put("measures", new JsonArray().add("paymnts.amount_paid")),
            new JsonObject().put("measures", new JsonArray().add("orders.revenue"))
                .put("dimensions", new JsonArray().add("payments.method")),
            new JsonObject().put("measures", new JsonArray().add("orders.revenue"))
                .put("dimensions", new JsonArray().add("orders.paymnt")),
            new JsonObject().put("measures", new JsonArray().add("customers.customer_count"))
                .put("filters", new JsonArray().add("customers.city = 'Berlin' OR customers.email LIKE '%'")))) {
          call(c, conn, "sl_query", q.copy().put("connectionId", conn), q.encode(), problems);
          calls++;
        }
      }
    }
    AttackRunner.assertNone(problems, "in the catalog tools");
    System.out.println("catalog tools: " + calls + " calls by 2 governed principals on 3 engines (entity_details, "
        + "discover_data, dictionary_search, sl_read_source, sl_query): no denied name or value");
  }

  /** The ungoverned principal still sees everything: the hiding above is the policy, not a broken catalog. */
  @Test
  void theDefaultPrincipalSeesTheWholeCatalog() throws Exception {
    McpHttpClient c = sg.session(SecurityGateway.DEFAULT);
    for (String conn : SecurityGateway.CONNECTIONS) {
      JsonObject r = c.toolResult("entity_details", new JsonObject().put("connectionId", conn)
          .put("entities", new JsonArray().add(new JsonObject().put("table", "payments"))));
      assertFalse(r.getBoolean("isError"), r.encode());
      assertTrue(r.encode().contains("card_number"), r.encode());
      JsonObject q = c.toolResult("sql_execution", new JsonObject().put("connectionId", conn)
          .put("sql", "SELECT card_number FROM payments ORDER BY id"));
      assertTrue(q.encode().contains(AdversarialShop.CARD_MARK), q.encode());
    }
  }
}
