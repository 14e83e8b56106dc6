package dev.sluice.security;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TableRules;
import dev.sluice.config.Tokens;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One started gateway over an {@link AdversarialShop}, for one test class: connections lite, pg
 * and my as the engines' superusers; principals {@code sales} (every table but {@code payments} and
 * {@code v_pay}, no {@code customers.email}) and {@code support} (only customers and orders, no
 * {@code *.email}), both governed on every connection; the ungoverned {@code default} principal behind the server
 * token; approved queries whose one parameter {@code v} carries attack text; a semantic layer
 * over all three tables; catalog snapshots scanned before the start.
 */
final class SecurityGateway implements AutoCloseable {

  static final String SALES = "sales";
  static final String SUPPORT = "support";
  static final String DEFAULT = "default";
  static final List<String> CONNECTIONS = List.of("pg", "my", "lite");
  /** Approved queries per connection: {@code <conn>_<suffix>}, each with the string parameter v. */
  static final List<String> APPROVED = List.of("by_city", "pc");

  private static final Map<String, String> TOKENS = Map.of(SALES, Tokens.newToken(), SUPPORT, Tokens.newToken(),
      DEFAULT, Tokens.newToken());

  final AdversarialShop shop;
  final TestGateway gw;

  private SecurityGateway(AdversarialShop shop, TestGateway gw) {
    this.shop = shop;
    this.gw = gw;
  }

  /** Loads the shop, scans it and starts a gateway on {@code vertx} (null: a default instance). */
  static SecurityGateway start(String prefix, int deadlineMs, Vertx vertx) throws Exception {
    AdversarialShop shop = AdversarialShop.load(prefix);
    try {
      Path approved = Files.createDirectories(shop.dir.resolve("approved"));
      for (String conn : CONNECTIONS) {
        writeApproved(approved, conn);
        writeSemantic(Files.createDirectories(shop.dir.resolve("semantic").resolve(conn)));
      }
      List<ConnectionConfig> cs = shop.connections(deadlineMs);
      TableRules sales = new TableRules(List.of("*"), List.of("payments", "v_pay"), List.of("customers.email"));
      TableRules support = new TableRules(List.of("customers", "orders"), List.of(), List.of("*.email"));
      SluiceConfig config = TestGateway.config(ServerConfig.defaults().withToken(TOKENS.get(DEFAULT)), cs, shop.dir)
          .withApprovedDir(approved)
          .withPrincipals(List.of(
              new PrincipalConfig(SALES, List.of(Tokens.sha256Hex(TOKENS.get(SALES))), List.of(), null,
                  Map.of("lite", sales, "pg", sales, "my", sales)),
              new PrincipalConfig(SUPPORT, List.of(Tokens.sha256Hex(TOKENS.get(SUPPORT))), List.of(), null,
                  Map.of("lite", support, "pg", support, "my", support))));
      for (ConnectionConfig c : cs) {
        OneOffScan.run(config, c.id());
      }
      TestGateway gw = vertx == null ? TestGateway.start(config, null) : TestGateway.start(config, vertx, null);
      return new SecurityGateway(shop, gw);
    } catch (Exception | Error e) {
      shop.close();
      throw e;
    }
  }

  /** Operator-authored definitions: the attack text is only ever the value of {@code v}. */
  private static void writeApproved(Path dir, String conn) throws Exception {
    String header = """
        /*
        id: %s_%s
        description: adversarial test
        connection: %s
        parameters:
          v: {type: string}
        limit: {default: 50, max: 100}
        %s*/
        """;
    Files.writeString(dir.resolve(conn + "_by_city.sql"), header.formatted(conn, "by_city", conn, "")
        + "SELECT id, name, city FROM customers WHERE city = #{v} ORDER BY id\n");
    // an author's grant: governed callers may count payments by method, and see nothing else of them
    Files.writeString(dir.resolve(conn + "_pc.sql"), header.formatted(conn, "pc", conn, "grants_tables: [payments]\n")
        + "SELECT count(*) AS n FROM payments WHERE method = #{v}\n");
  }

  private static void writeSemantic(Path dir) throws Exception {
    Files.writeString(dir.resolve("customers.yaml"), """
        name: customers
        table: customers
        description: Registered customers.
        joins:
          - {to: orders, local: id, remote: customer_id, cardinality: one_to_many}
        dimensions:
          - {name: city, column: city, type: string}
          - {name: email, column: email, type: string}
        measures:
          - {name: customer_count, agg: count}
        """);
    Files.writeString(dir.resolve("orders.yaml"), """
        name: orders
        table: orders
        description: Orders.
        joins:
          - {to: customers, local: customer_id, remote: id, cardinality: many_to_one}
          - {to: payments, local: id, remote: order_id, cardinality: one_to_many}
        dimensions:
          - {name: status, column: status, type: string}
        measures:
          - {name: revenue, agg: sum, column: total}
        """);
    Files.writeString(dir.resolve("payments.yaml"), """
        name: payments
        table: payments
        description: Card payments.
        joins:
          - {to: orders, local: order_id, remote: id, cardinality: many_to_one}
        dimensions:
          - {name: card_number, column: card_number, type: string}
          - {name: method, column: method, type: string}
        measures:
          - {name: amount_paid, agg: sum, column: amount}
        """);
  }

  /**
   * One gateway for every security test class of a run (the shop, its scans and the start cost
   * about 10 s): the first class to ask starts it, JUnit closes it (dropping the scratch databases)
   * when the whole run ends. Its Vert.x checks event loops every 100 ms
   * ({@link EventLoopOverMcpTest#checkedVertx}); only that test listens to the warnings.
   */
  static final class Shared implements BeforeAllCallback {

    private static volatile SecurityGateway instance;

    private record Holder(SecurityGateway sg) implements ExtensionContext.Store.CloseableResource {
      @Override
      public void close() throws Throwable {
        instance = null;
        sg.close();
      }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
      instance = context.getRoot().getStore(ExtensionContext.Namespace.create(Shared.class))
          .getOrComputeIfAbsent("gateway", k -> {
            try {
              return new Holder(start("sec", 10_000, EventLoopOverMcpTest.checkedVertx()));
            } catch (Exception e) {
              throw new IllegalStateException("could not start the shared security gateway", e);
            }
          }, Holder.class).sg();
    }

    static SecurityGateway get() {
      return instance;
    }
  }

  /** An initialized session of {@code principal}. */
  McpHttpClient session(String principal) throws Exception {
    return gw.session(TOKENS.get(principal));
  }

  static boolean governed(String principal) {
    return !principal.equals(DEFAULT);
  }

  @Override
  public void close() throws Exception {
    try {
      gw.close();
    } finally {
      shop.close();
    }
  }
}
