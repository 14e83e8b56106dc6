package dev.sluice.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DemoGeneratorTest {

  @Test
  void generationIsDeterministicAndMatchesTheDocumentedCounts() {
    long t0 = System.nanoTime();
    DemoData a = DemoDataset.generate();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    DemoData b = DemoDataset.generate();
    System.out.printf("demo generation in memory: %d ms, %d rows %s%n", ms, a.totalRows(), a.rowCounts());
    assertEquals(DemoChecksum.of(a), DemoChecksum.of(b));
    assertEquals(DemoDataset.expectedRowCounts(), a.rowCounts());
  }

  /**
   * The data of {@link DemoSchema#VERSION} pinned: a JDK or code change that alters any value
   * fails here. After an intended change, bump the version and update these.
   */
  @Test
  void dataIsPinnedToTheDatasetVersion() {
    assertEquals(1, DemoSchema.VERSION, "update the pinned checksums with the version");
    Map<String, String> pinned = new LinkedHashMap<>();
    pinned.put("customers", "ced88726bdcf0a18ae733051e7436ab540775eac0ab7f74dd15faf3d7ac6f140");
    pinned.put("products", "a0e2b0bc9d6732210a821e22001cf360b1c4e4441143db2bf29bd55d100e715a");
    pinned.put("orders", "750a4f9a4e916686c93f0d4afcf84f047c0a1661d83fda1140cfac61230ac043");
    pinned.put("order_items", "ce3568604b78c4dfdfff1a62a86538d56e5de6575676a26fba577bc28667fe73");
    pinned.put("payments", "410019c439e1f212f56c975bada80141d5875ee33fb0bd57fedb7381d2a921a7");
    pinned.put("web_events", "244c0c1f44904049fb6d84c77cc8b5a06edf9adab587b3635f85e80e154944b6");
    assertEquals(pinned, DemoChecksum.of(DemoDataset.generate()));
  }

  @Test
  void ordersTotalTheirItemsAndReferencesResolve() {
    DemoData d = DemoDataset.generate();
    Map<Integer, BigDecimal> sums = new HashMap<>();
    for (Object[] item : d.rows(DemoSchema.ORDER_ITEMS)) {
      BigDecimal line = ((BigDecimal) item[4]).multiply(BigDecimal.valueOf((Integer) item[3]));
      sums.merge((Integer) item[1], line, BigDecimal::add);
      assertTrue((Integer) item[2] >= 1 && (Integer) item[2] <= DemoGenerator.PRODUCTS);
    }
    List<Object[]> orders = d.rows(DemoSchema.ORDERS);
    for (Object[] o : orders) {
      assertEquals(0, sums.get((Integer) o[0]).compareTo((BigDecimal) o[5]), "total of order " + o[0]);
    }
    Set<String> emails = new HashSet<>();
    for (Object[] c : d.rows(DemoSchema.CUSTOMERS)) {
      assertTrue(emails.add((String) c[2]), "duplicate e-mail " + c[2]);
      assertTrue(((String) c[2]).matches("[a-z]+\\.[a-z]+[0-9]+@example\\.(com|org)"), (String) c[2]);
    }
    for (Object[] p : d.rows(DemoSchema.PAYMENTS)) {
      assertTrue((Integer) p[1] >= 1 && (Integer) p[1] <= orders.size());
    }
  }
}
