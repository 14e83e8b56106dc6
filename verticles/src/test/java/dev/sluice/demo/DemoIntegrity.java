package dev.sluice.demo;

import java.util.LinkedHashMap;
import java.util.Map;

/** Consistency checks shared by the engine tests: each query counts violations and must return 0. */
final class DemoIntegrity {

  private DemoIntegrity() {}

  static Map<String, String> violationQueries(DemoSql sql) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("orders without customer", orphans(sql, "orders", "customer_id", "customers"));
    q.put("items without order", orphans(sql, "order_items", "order_id", "orders"));
    q.put("items without product", orphans(sql, "order_items", "product_id", "products"));
    q.put("payments without order", orphans(sql, "payments", "order_id", "orders"));
    q.put("events with unknown customer", orphans(sql, "web_events", "customer_id", "customers"));
    q.put("orders without items", "SELECT COUNT(*) FROM " + sql.qualified("orders") + " o WHERE NOT EXISTS "
        + "(SELECT 1 FROM " + sql.qualified("order_items") + " i WHERE i.order_id = o.id)");
    // tolerance because SQLite sums REAL values
    q.put("orders whose total is not the sum of items", "SELECT COUNT(*) FROM " + sql.qualified("orders")
        + " o WHERE ABS(o.total - (SELECT SUM(i.quantity * i.unit_price) FROM "
        + sql.qualified("order_items") + " i WHERE i.order_id = o.id)) > 0.001");
    return q;
  }

  private static String orphans(DemoSql sql, String child, String column, String parent) {
    return "SELECT COUNT(*) FROM " + sql.qualified(child) + " c LEFT JOIN " + sql.qualified(parent)
        + " p ON p.id = c." + column + " WHERE c." + column + " IS NOT NULL AND p.id IS NULL";
  }
}
