package dev.sluice.demo;

import static dev.sluice.demo.DemoColumn.numeric;
import static dev.sluice.demo.DemoColumn.of;
import static dev.sluice.demo.DemoColumn.reference;
import static dev.sluice.demo.DemoColumn.text;

import java.util.List;

/** The demo shop schema: the single source of truth every engine writer renders from. */
public final class DemoSchema {

  /**
   * Dataset version. Bump it whenever the schema or the generated values change, so existing
   * SQLite demo files are regenerated ({@link DemoDataset#ensureSqlite}).
   */
  public static final int VERSION = 1;

  public static final DemoTable CUSTOMERS = new DemoTable(
      "customers",
      "Shop customers, one row per registered account.",
      List.of(
          of("id", DemoType.INT, "Customer id (primary key)."),
          text("name", 100, "Full name: first and last name."),
          text("email", 150, "E-mail address, unique per customer.").asUnique(),
          text("city", 80, "Home city."),
          text("country", 80, "Home country (English name)."),
          text("segment", 20, "Customer segment: consumer, business or enterprise."),
          of("created_at", DemoType.TIMESTAMP, "When the account was created (shop local time).")),
      List.of("country"));

  public static final DemoTable PRODUCTS = new DemoTable(
      "products",
      "Product catalog.",
      List.of(
          of("id", DemoType.INT, "Product id (primary key)."),
          text("sku", 20, "Stock keeping unit, unique; prefix names the category.").asUnique(),
          text("name", 120, "Product name, unique.").asUnique(),
          text("category", 40, "Category: Electronics, Home, Garden, Books, Toys, Sports, Clothing or Beauty."),
          numeric("price", 10, 2, "Current list price in EUR."),
          of("active", DemoType.BOOLEAN, "Whether the product is currently sold."),
          of("created_at", DemoType.TIMESTAMP, "When the product was added to the catalog.")),
      List.of("category"));

  public static final DemoTable ORDERS = new DemoTable(
      "orders",
      "Customer orders; total is the sum of the order's items.",
      List.of(
          of("id", DemoType.INT, "Order id (primary key)."),
          reference("customer_id", "customers", "Ordering customer."),
          text("status", 20, "Order status: pending, paid, shipped, delivered, cancelled or refunded."),
          of("ordered_at", DemoType.TIMESTAMP, "When the order was placed."),
          text("shipping_country", 80, "Destination country (English name)."),
          numeric("total", 12, 2, "Order total in EUR: sum of quantity * unit_price over its items.")),
      List.of("customer_id", "ordered_at"));

  public static final DemoTable ORDER_ITEMS = new DemoTable(
      "order_items",
      "Order lines: one product per line.",
      List.of(
          of("id", DemoType.INT, "Order item id (primary key)."),
          reference("order_id", "orders", "Order this line belongs to."),
          reference("product_id", "products", "Ordered product."),
          of("quantity", DemoType.INT, "Units ordered, 1 to 5."),
          numeric("unit_price", 10, 2, "Price paid per unit in EUR: list price minus discount."),
          numeric("discount", 4, 2, "Discount as a fraction of the list price (0.10 = 10 %).")),
      List.of("order_id", "product_id"));

  public static final DemoTable PAYMENTS = new DemoTable(
      "payments",
      "Payment attempts for orders; an order may have a failed attempt before a successful one.",
      List.of(
          of("id", DemoType.INT, "Payment id (primary key)."),
          reference("order_id", "orders", "Paid order."),
          text("method", 20, "Payment method: card, paypal, bank_transfer or gift_card."),
          numeric("amount", 12, 2, "Amount in EUR."),
          text("status", 20, "Payment status: succeeded, failed or refunded."),
          of("paid_at", DemoType.TIMESTAMP, "When the payment attempt was made.")),
      List.of("order_id"));

  public static final DemoTable WEB_EVENTS = new DemoTable(
      "web_events",
      "Web shop clickstream; customer_id is NULL for anonymous visitors.",
      List.of(
          of("id", DemoType.BIGINT, "Event id (primary key)."),
          reference("customer_id", "customers", "Signed-in customer, NULL when anonymous.").asNullable(),
          text("session_id", 40, "Browser session identifier."),
          text("event_type", 20, "Event: page_view, search, add_to_cart, checkout or purchase."),
          text("url", 200, "Requested path."),
          of("occurred_at", DemoType.TIMESTAMP, "When the event happened."),
          of("properties", DemoType.JSON, "Event details as a JSON object, e.g. device, referrer, query, sku.")),
      List.of("occurred_at", "customer_id"));

  /** All tables, parents before children (creation and insert order). */
  public static final List<DemoTable> TABLES =
      List.of(CUSTOMERS, PRODUCTS, ORDERS, ORDER_ITEMS, PAYMENTS, WEB_EVENTS);

  private DemoSchema() {}

  /** The table with this name. */
  public static DemoTable table(String name) {
    return TABLES.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no demo table " + name));
  }
}
