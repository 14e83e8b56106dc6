package dev.sluice.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.TableRef;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TableRules;
import dev.sluice.sql.Driver;
import dev.sluice.engine.Engines;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.guard.ReadGuard;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Policy decisions on PostgreSQL and MySQL names, without a database: schemas, globs, catalogs. */
class TablePolicyTest {

  private static final ConnectionConfig PG = new ConnectionConfig("wh", Driver.POSTGRES,
      "postgresql://u@127.0.0.1/wh", null, null, null, null, 1, 1, 1000, 1, 1);
  private static final ConnectionConfig MY = new ConnectionConfig("crm", Driver.MYSQL,
      "mysql://u@127.0.0.1/crm", null, null, null, null, 1, 1, 1000, 1, 1);

  private final TablePolicy policy = new TablePolicy(new SluiceConfig(ServerConfig.defaults(), Path.of("/tmp"),
      List.of(PG, MY), false).withPrincipals(List.of(new PrincipalConfig("bi", List.of("00".repeat(32)), List.of(),
          null, Map.of(
              "wh", new TableRules(List.of("sales.*", "public.dim_*"), List.of("sales.salaries"),
                  List.of("*.ssn", "sales.customers.phone")),
              "crm", new TableRules(List.of(), List.of("audit_*"), List.of()))))), null);

  private SqlError refusal(ConnectionConfig c, String sql) {
    Exception e = assertThrows(Exception.class, () -> check(c, sql), sql);
    return SqlError.from(e instanceof java.util.concurrent.CompletionException ? e.getCause() : e);
  }

  private void ok(ConnectionConfig c, String sql) throws Exception {
    check(c, sql);
  }

  /** The guard (as the gateway applies it first), then the policy. */
  private void check(ConnectionConfig c, String sql) throws Exception {
    AnalysedStatement a = SqlAnalyzer.analyseNow(Engines.of(c.driver()).dialect(), sql);
    Refusal r = ReadGuard.check(a);
    if (r != null) {
      throw r.toError();
    }
    policy.check("bi", c, a, List.of()).await(10, java.util.concurrent.TimeUnit.SECONDS);
  }

  @Test
  void schemasGlobsAndDefaultSchemasDecide() throws Exception {
    ok(PG, "SELECT id, name FROM sales.orders o JOIN public.dim_date d ON d.id = o.date_id");
    ok(PG, "SELECT count(*) FROM dim_region");
    assertTrue(refusal(PG, "SELECT * FROM finance.ledger").getMessage().contains("'finance.ledger'"));
    assertTrue(refusal(PG, "SELECT total FROM \"sales\".\"salaries\"").getMessage().contains("sales.salaries"));
    assertTrue(refusal(PG, "SELECT e.ssn FROM sales.employees e").getMessage().contains("'employees.ssn'"));
    refusal(PG, "SELECT phone FROM sales.customers");
    ok(PG, "SELECT phone FROM sales.suppliers");
    refusal(PG, "SELECT * FROM information_schema.columns");
    refusal(PG, "SELECT query FROM pg_stat_activity");
    refusal(PG, "EXPLAIN (FORMAT JSON) SELECT * FROM finance.ledger");
    ok(MY, "SELECT * FROM crm.accounts");
    refusal(MY, "SELECT * FROM audit_log");
    refusal(MY, "SHOW COLUMNS FROM accounts");
    refusal(MY, "SELECT * FROM mysql.user");
    assertEquals("syntax_error", refusal(MY, "SELECT FROM WHERE").type().wireName());
  }

  @Test
  void catalogVisibilityFollowsTheSameRules() {
    assertTrue(policy.tableVisible("bi", "wh", new TableRef("wh", "sales", "orders")));
    assertTrue(!policy.tableVisible("bi", "wh", new TableRef("wh", "sales", "salaries")));
    assertTrue(!policy.tableVisible("bi", "wh", new TableRef("wh", "finance", "ledger")));
    assertTrue(!policy.columnVisible("bi", "wh", new TableRef("wh", "sales", "employees"), "SSN"));
    assertTrue(policy.columnVisible("bi", "wh", new TableRef("wh", "sales", "employees"), "name"));
    assertTrue(policy.tableVisible("someone-else", "wh", new TableRef("wh", "finance", "ledger")),
        "a principal without rules is governed by the database role alone");
  }
}
