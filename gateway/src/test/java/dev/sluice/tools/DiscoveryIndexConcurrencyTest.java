package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import dev.sluice.discovery.DiscoveryIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One index serves every event loop: concurrent searches must all succeed and agree. */
class DiscoveryIndexConcurrencyTest {

  @Test
  void concurrentSearchesShareOneIndexSafely() throws Exception {
    List<CatalogTable> tables = new ArrayList<>();
    for (int t = 0; t < 300; t++) {
      List<CatalogColumn> cols = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        cols.add(new CatalogColumn("col_" + c + "_of_" + t, "text", "text", "string", true, c == 0,
            "column " + c + " of table " + t, List.of("value" + t + "x" + c), 1L));
      }
      tables.add(new CatalogTable(new TableRef(null, "main", "table_" + t), "table", "table number " + t, 10L, cols,
          List.of()));
    }
    DiscoveryIndex index = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite", "s", "t", 1, tables,
        List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());
    String expected = index.search("table 42 column 3", "db", Set.of(), 5).get(0).entry().id();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> all = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        all.add(pool.submit(() -> index.search("table 42 column 3", "db", Set.of(), 5).get(0).entry().id()));
      }
      for (Future<String> f : all) {
        assertEquals(expected, f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
