package dev.sluice.demo;

import dev.sluice.demo.DemoNames.Category;
import dev.sluice.demo.DemoNames.City;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.Normalizer;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Generates the demo shop dataset. Determinism rests on three choices: {@link SplittableRandom}
 * (its algorithm is specified by the JDK) seeded per table, {@link StrictMath} for every
 * floating-point function (Math may use platform intrinsics), and no iteration over hash-ordered
 * collections.
 */
final class DemoGenerator {

  static final long SEED = 0x511CE2025L;

  static final int CUSTOMERS = 5_000;
  static final int PRODUCTS = 300;
  static final int ORDERS = 25_000;
  static final int WEB_EVENTS = 20_000;

  /** The dataset ends here; nothing happens after it. */
  static final LocalDateTime END = LocalDateTime.of(2025, 12, 31, 23, 59, 59);
  private static final LocalDateTime CUSTOMERS_FROM = LocalDateTime.of(2023, 1, 1, 0, 0, 0);
  private static final LocalDateTime PRODUCTS_FROM = LocalDateTime.of(2022, 1, 1, 0, 0, 0);
  private static final LocalDateTime PRODUCTS_TO = LocalDateTime.of(2023, 6, 30, 23, 59, 59);
  private static final LocalDateTime EVENTS_FROM = LocalDateTime.of(2025, 7, 1, 0, 0, 0);

  private static final String[] SEGMENTS = {"consumer", "business", "enterprise"};
  private static final int[] SEGMENT_WEIGHTS = {80, 15, 5};
  private static final String[] METHODS = {"card", "paypal", "bank_transfer", "gift_card"};
  private static final int[] METHOD_WEIGHTS = {55, 25, 12, 8};
  private static final int[] ITEM_COUNT_WEIGHTS = {28, 30, 24, 11, 7};
  private static final int[] QUANTITY_WEIGHTS = {60, 22, 10, 5, 3};
  private static final String[] DISCOUNTS = {"0.05", "0.10", "0.15", "0.20", "0.25"};
  /** Relative order volume per month (January first): the shop sells most before Christmas. */
  private static final int[] MONTH_WEIGHTS = {80, 75, 90, 95, 100, 95, 90, 95, 100, 110, 160, 190};
  private static final String[] DEVICES = {"mobile", "desktop", "tablet"};
  private static final int[] DEVICE_WEIGHTS = {55, 38, 7};
  private static final String[] REFERRERS =
      {"google", "direct", "newsletter", "facebook", "instagram", "bing", "affiliate"};
  private static final int[] REFERRER_WEIGHTS = {40, 25, 10, 8, 7, 5, 5};

  private record Customer(int id, String country, LocalDateTime createdAt) {}

  private record Product(int id, String sku, String noun, String category, BigDecimal price) {}

  private record Order(int id, int customerId, String status, LocalDateTime orderedAt, BigDecimal total) {}

  private final List<Customer> customers = new ArrayList<>();
  private final List<Product> products = new ArrayList<>();
  private final List<Order> orders = new ArrayList<>();
  private final Map<String, List<Object[]>> rows = new LinkedHashMap<>();

  /** Generates the whole dataset. */
  static DemoData generate() {
    DemoGenerator g = new DemoGenerator();
    g.customers(random(1));
    g.products(random(2));
    g.ordersAndItems(random(3));
    g.payments(random(4));
    g.webEvents(random(5));
    return new DemoData(g.rows);
  }

  private static SplittableRandom random(int stream) {
    return new SplittableRandom(SEED * 31 + stream);
  }

  private void customers(SplittableRandom r) {
    int cityTotal = DemoNames.CITIES.stream().mapToInt(City::weight).sum();
    // ids follow sign-up time, as in a real shop
    List<LocalDateTime> created = new ArrayList<>();
    for (int i = 0; i < CUSTOMERS; i++) {
      created.add(between(r, CUSTOMERS_FROM, END));
    }
    created.sort(Comparator.naturalOrder());
    List<Object[]> out = new ArrayList<>(CUSTOMERS);
    for (int i = 0; i < CUSTOMERS; i++) {
      int id = i + 1;
      String first = pick(r, DemoNames.FIRST_NAMES);
      String last = pick(r, DemoNames.LAST_NAMES);
      City city = pickCity(r, cityTotal);
      String segment = SEGMENTS[weighted(r, SEGMENT_WEIGHTS)];
      String email = ascii(first) + "." + ascii(last) + id + "@example." + (id % 3 == 0 ? "org" : "com");
      customers.add(new Customer(id, city.country(), created.get(i)));
      out.add(new Object[] {id, first + " " + last, email, city.city(), city.country(), segment, created.get(i)});
    }
    rows.put(DemoSchema.CUSTOMERS.name(), out);
  }

  private void products(SplittableRandom r) {
    Set<String> names = new HashSet<>();
    List<Object[]> out = new ArrayList<>(PRODUCTS);
    while (products.size() < PRODUCTS) {
      Category category = pick(r, DemoNames.CATEGORIES);
      String noun = pick(r, category.nouns());
      String name = pick(r, DemoNames.ADJECTIVES) + " " + pick(r, DemoNames.MATERIALS) + " " + noun;
      double u = r.nextDouble();
      if (!names.add(name)) {
        continue;
      }
      int id = products.size() + 1;
      String sku = category.skuPrefix() + "-" + String.format(Locale.ROOT, "%05d", id * 7 + 10_000);
      // log-uniform between the category's bounds, priced at .99 or .49
      long whole = Math.max(2, Math.round(category.minPrice()
          * StrictMath.pow((double) category.maxPrice() / category.minPrice(), u)));
      BigDecimal price = BigDecimal.valueOf(whole).subtract(new BigDecimal(id % 4 == 0 ? "0.51" : "0.01"));
      boolean active = r.nextInt(100) < 92;
      LocalDateTime created = between(r, PRODUCTS_FROM, PRODUCTS_TO);
      products.add(new Product(id, sku, noun, category.name(), price));
      out.add(new Object[] {id, sku, name, category.name(), price, active, created});
    }
    rows.put(DemoSchema.PRODUCTS.name(), out);
  }

  private void ordersAndItems(SplittableRandom r) {
    record Draft(int customer, LocalDateTime at) {}
    List<Draft> drafts = new ArrayList<>(ORDERS);
    for (int i = 0; i < ORDERS; i++) {
      LocalDateTime at = orderTime(r);
      int signedUp = signedUpBy(at);
      // a seventh of the customers are regulars who place most repeat orders
      int customer = signedUp >= 7 && r.nextInt(100) < 40
          ? 7 * (1 + r.nextInt(signedUp / 7))
          : 1 + r.nextInt(signedUp);
      drafts.add(new Draft(customer, at));
    }
    // ids follow order time; the stable sort keeps ties in generation order
    drafts.sort(Comparator.comparing(Draft::at));

    List<Object[]> orderRows = new ArrayList<>(ORDERS);
    List<Object[]> itemRows = new ArrayList<>(ORDERS * 5 / 2);
    List<String> countries = DemoNames.CITIES.stream().map(City::country).distinct().toList();
    for (int i = 0; i < ORDERS; i++) {
      Draft d = drafts.get(i);
      int id = i + 1;
      Customer c = customers.get(d.customer() - 1);
      String status = orderStatus(r, d.at());
      String shipTo = r.nextInt(100) < 95 ? c.country() : pick(r, countries);
      int itemCount = 1 + weighted(r, ITEM_COUNT_WEIGHTS);
      Set<Integer> chosen = new HashSet<>();
      BigDecimal total = BigDecimal.ZERO.setScale(2);
      for (int k = 0; k < itemCount; k++) {
        Product p;
        do {
          // the first 40 products are bestsellers
          p = products.get(r.nextInt(2) == 0 ? r.nextInt(40) : r.nextInt(PRODUCTS));
        } while (!chosen.add(p.id()));
        int quantity = 1 + weighted(r, QUANTITY_WEIGHTS);
        BigDecimal discount = r.nextInt(100) < 15
            ? new BigDecimal(DISCOUNTS[r.nextInt(DISCOUNTS.length)])
            : new BigDecimal("0.00");
        BigDecimal unitPrice = p.price().multiply(BigDecimal.ONE.subtract(discount))
            .setScale(2, RoundingMode.HALF_UP);
        total = total.add(unitPrice.multiply(BigDecimal.valueOf(quantity)));
        itemRows.add(new Object[] {itemRows.size() + 1, id, p.id(), quantity, unitPrice, discount});
      }
      orders.add(new Order(id, c.id(), status, d.at(), total));
      orderRows.add(new Object[] {id, c.id(), status, d.at(), shipTo, total});
    }
    rows.put(DemoSchema.ORDERS.name(), orderRows);
    rows.put(DemoSchema.ORDER_ITEMS.name(), itemRows);
  }

  /** Recent orders are still in flight; old ones mostly arrived. */
  private static String orderStatus(SplittableRandom r, LocalDateTime at) {
    long ageHours = ChronoUnit.HOURS.between(at, END);
    int x = r.nextInt(100);
    if (ageHours < 48) {
      return x < 50 ? "pending" : x < 90 ? "paid" : "cancelled";
    }
    if (ageHours < 24 * 7) {
      return x < 25 ? "paid" : x < 90 ? "shipped" : "cancelled";
    }
    return x < 2 ? "pending" : x < 3 ? "paid" : x < 4 ? "shipped" : x < 85 ? "delivered"
        : x < 94 ? "cancelled" : "refunded";
  }

  private void payments(SplittableRandom r) {
    List<Object[]> out = new ArrayList<>(ORDERS);
    for (Order o : orders) {
      String method = METHODS[weighted(r, METHOD_WEIGHTS)];
      LocalDateTime at = o.orderedAt().plusSeconds(30 + r.nextInt(600));
      switch (o.status()) {
        case "pending" -> { }
        case "cancelled" -> {
          if (r.nextBoolean()) {
            out.add(payment(out, o, method, "failed", at));
          }
        }
        default -> {
          if (r.nextInt(100) < 7) {
            out.add(payment(out, o, method, "failed", at));
            method = METHODS[weighted(r, METHOD_WEIGHTS)];
            at = at.plusSeconds(60 + r.nextInt(1800));
          }
          if (method.equals("bank_transfer")) {
            at = at.plusSeconds(3600L * (12 + r.nextInt(60)));
          }
          out.add(payment(out, o, method, o.status().equals("refunded") ? "refunded" : "succeeded", at));
        }
      }
    }
    rows.put(DemoSchema.PAYMENTS.name(), out);
  }

  private static Object[] payment(List<Object[]> out, Order o, String method, String status, LocalDateTime at) {
    return new Object[] {out.size() + 1, o.id(), method, o.total(), status, at.isAfter(END) ? END : at};
  }

  private void webEvents(SplittableRandom r) {
    record Event(Integer customer, String session, String type, String url, LocalDateTime at, String props) {}
    List<List<Event>> sessions = new ArrayList<>();
    int events = 0;
    while (events < WEB_EVENTS) {
      Integer customer = null;
      LocalDateTime from = EVENTS_FROM;
      if (r.nextInt(100) < 55) {
        Customer c = customers.get(r.nextInt(CUSTOMERS));
        customer = c.id();
        from = c.createdAt().isAfter(from) ? c.createdAt() : from;
      }
      LocalDateTime at = between(r, from, END.minusHours(1));
      String session = "s-" + hex16(r.nextLong());
      String device = DEVICES[weighted(r, DEVICE_WEIGHTS)];
      String referrer = REFERRERS[weighted(r, REFERRER_WEIGHTS)];
      List<Event> s = new ArrayList<>();
      Product viewed = products.get(r.nextInt(PRODUCTS));
      s.add(new Event(customer, session, "page_view", r.nextBoolean() ? "/" : "/category/"
          + viewed.category().toLowerCase(Locale.ROOT), at, json(device, referrer)));
      if (r.nextInt(100) < 30) {
        at = at.plusSeconds(5 + r.nextInt(120));
        String query = viewed.noun().toLowerCase(Locale.ROOT);
        s.add(new Event(customer, session, "search", "/search?q=" + query.replace(' ', '+'), at,
            json(device, referrer, "query", query)));
      }
      int views = r.nextInt(5);
      for (int v = 0; v < views; v++) {
        at = at.plusSeconds(5 + r.nextInt(180));
        viewed = products.get(r.nextInt(PRODUCTS));
        s.add(new Event(customer, session, "page_view", "/product/" + viewed.sku(), at,
            json(device, referrer, "sku", viewed.sku())));
      }
      if (r.nextInt(100) < 25) {
        at = at.plusSeconds(5 + r.nextInt(120));
        int quantity = 1 + weighted(r, QUANTITY_WEIGHTS);
        s.add(new Event(customer, session, "add_to_cart", "/cart", at,
            json(device, referrer, "quantity", quantity, "sku", viewed.sku())));
        if (r.nextInt(100) < 50) {
          at = at.plusSeconds(10 + r.nextInt(300));
          s.add(new Event(customer, session, "checkout", "/checkout", at, json(device, referrer)));
          if (r.nextInt(100) < 75) {
            at = at.plusSeconds(20 + r.nextInt(300));
            s.add(new Event(customer, session, "purchase", "/checkout/complete", at,
                json(device, referrer, "items", quantity, "sku", viewed.sku())));
          }
        }
      }
      if (events + s.size() > WEB_EVENTS) {
        s = s.subList(0, WEB_EVENTS - events);
      }
      events += s.size();
      sessions.add(s);
    }
    sessions.sort(Comparator.comparing(s -> s.get(0).at()));
    List<Object[]> out = new ArrayList<>(WEB_EVENTS);
    for (List<Event> s : sessions) {
      for (Event e : s) {
        out.add(new Object[] {
            (long) out.size() + 1, e.customer(), e.session(), e.type(), e.url(), e.at(), e.props()});
      }
    }
    rows.put(DemoSchema.WEB_EVENTS.name(), out);
  }

  /**
   * An order time: volume grows with the customer base (so every customer orders at about the
   * same rate from sign-up on) and follows the monthly seasonality.
   */
  private LocalDateTime orderTime(SplittableRandom r) {
    while (true) {
      LocalDateTime t = between(r, CUSTOMERS_FROM, END);
      if (r.nextInt(CUSTOMERS) < signedUpBy(t) && r.nextInt(200) < MONTH_WEIGHTS[t.getMonthValue() - 1]) {
        return t;
      }
    }
  }

  /** How many customers had signed up at {@code t}; they are ids 1..n (ids follow sign-up). */
  private int signedUpBy(LocalDateTime t) {
    int lo = 0;
    int hi = customers.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (customers.get(mid).createdAt().isAfter(t)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static LocalDateTime between(SplittableRandom r, LocalDateTime from, LocalDateTime to) {
    long span = ChronoUnit.SECONDS.between(from, to);
    return span <= 0 ? from : from.plusSeconds(r.nextLong(span + 1));
  }

  private static <T> T pick(SplittableRandom r, List<T> list) {
    return list.get(r.nextInt(list.size()));
  }

  private static City pickCity(SplittableRandom r, int total) {
    int x = r.nextInt(total);
    for (City c : DemoNames.CITIES) {
      x -= c.weight();
      if (x < 0) {
        return c;
      }
    }
    throw new IllegalStateException();
  }

  private static int weighted(SplittableRandom r, int[] weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int x = r.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) {
        return i;
      }
    }
    throw new IllegalStateException();
  }

  /** Lower-case ASCII for e-mail local parts: accents stripped, other letters transliterated. */
  static String ascii(String name) {
    String s = name.toLowerCase(Locale.ROOT).replace("ł", "l").replace("ø", "o").replace("ı", "i").replace("ß", "ss");
    s = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    return s.replaceAll("[^a-z]", "");
  }

  private static String hex16(long v) {
    String h = Long.toHexString(v);
    return "0".repeat(16 - h.length()) + h;
  }

  /** Canonical JSON object text: keys sorted, no whitespace; values are ASCII strings or ints. */
  static String json(String device, String referrer, Object... more) {
    TreeMap<String, Object> m = new TreeMap<>();
    m.put("device", device);
    m.put("referrer", referrer);
    for (int i = 0; i < more.length; i += 2) {
      m.put((String) more[i], more[i + 1]);
    }
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, Object> e : m.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append('"').append(e.getKey()).append("\":");
      if (e.getValue() instanceof Number n) {
        sb.append(n);
      } else {
        sb.append('"').append(e.getValue().toString().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
      }
    }
    return sb.append('}').toString();
  }
}
