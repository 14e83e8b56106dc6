package dev.sluice.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
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
