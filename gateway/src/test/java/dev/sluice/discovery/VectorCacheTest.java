package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.PgStateStore;
import dev.sluice.state.StateStore;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The vector cache: a rescan embeds only what changed, a restart nothing, and nodes sharing the
 * PostgreSQL state store share the vectors. The real model; the count of texts it was given is
 * what is checked.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VectorCacheTest {

  private TextEmbedder model;
  private final AtomicInteger embedded = new AtomicInteger();

  @BeforeAll
  void load() {
    TextEmbedder real = OnnxTextEmbedder.load(1).orElseThrow();
    model = new TextEmbedder() {
      @Override
      public String modelId() {
        return real.modelId();
      }

      @Override
      public int dimension() {
        return real.dimension();
      }

      @Override
      public float[][] embed(List<String> texts) {
        embedded.addAndGet(texts.size());
        return real.embed(texts);
      }
    };
  }

  private static CatalogSnapshot snapshot(String syncId, String ordersComment) {
    List<CatalogColumn> orders = List.of(
        new CatalogColumn("id", "integer", "integer", "number", false, true, null, List.of(), null),
        new CatalogColumn("status", "text", "text", "string", false, false, "Order status", List.of("paid"), 1L),
        new CatalogColumn("total", "numeric", "decimal", "number", false, false, null, List.of(), null));
    List<CatalogColumn> refunds = List.of(
        new CatalogColumn("refund_id", "integer", "integer", "number", false, true, null, List.of(), null),
        new CatalogColumn("refund_amt", "numeric", "decimal", "number", false, false, "Money paid back", List.of(),
            null));
    List<CatalogTable> tables = new ArrayList<>();
    tables.add(new CatalogTable(new TableRef(null, "main", "orders"), "table", ordersComment, 1L, orders, List.of()));
    tables.add(new CatalogTable(new TableRef(null, "main", "refunds"), "table", null, 1L, refunds, List.of()));
    return new CatalogSnapshot("shop", "sqlite", syncId, "t", 1, tables, List.of(), new ProfileInfo(1, 1, 1, "t"));
  }

  private static List<DiscoveryEntry> entries(CatalogSnapshot s) {
    return DiscoveryEntries.of(List.of(s), List.of(), Map.of());
  }

  @Test
  void aRescanEmbedsOnlyWhatChangedAndARestartNothing() throws Exception {
    Path dir = Files.createTempDirectory("sluice-vectors");
    List<DiscoveryEntry> first = entries(snapshot("s1", "Customer orders"));
    embedded.set(0);
    float[][] v1 = new VectorCache(new DirectoryStateStore(dir), model).vectors(first, null);
    // 2 tables, 3 non-key columns; the key columns (id, refund_id) have no vector
    assertEquals(5, embedded.get());
    assertEquals(null, v1[first.indexOf(first.stream().filter(e -> e.id().equals("orders.id")).findFirst().get())]);

    // the orders comment changed: the orders table and its columns (their text names it) are new
    List<DiscoveryEntry> second = entries(snapshot("s2", "Orders placed in the web shop"));
    embedded.set(0);
    VectorCache restarted = new VectorCache(new DirectoryStateStore(dir), model);
    VectorCache.Stats[] stats = new VectorCache.Stats[1];
    float[][] v2 = restarted.vectors(second, s -> stats[0] = s);
    assertEquals(3, embedded.get(), "orders, orders.status, orders.total");
    assertEquals(2, stats[0].reused(), "refunds and refunds.refund_amt");
    int refunds = indexOf(second, "refunds");
    assertArrayEquals(v1[indexOf(first, "refunds")], v2[refunds]);

    embedded.set(0);
    new VectorCache(new DirectoryStateStore(dir), model).vectors(second, null);
    assertEquals(0, embedded.get(), "a restart with the same catalog embeds nothing");
  }

  @Test
  void nodesSharingThePostgresStoreShareTheVectors() throws Exception {
    TestDatabases.requirePostgres();
    Vertx vertx = Vertx.vertx();
    String table = TestDatabases.uniqueName("sluice_vectors");
    PgStateStore a = new PgStateStore(vertx, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), table);
    PgStateStore b = new PgStateStore(vertx, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), table);
    try {
      a.init().await(60, TimeUnit.SECONDS);
      b.init().await(60, TimeUnit.SECONDS);
      List<DiscoveryEntry> entries = entries(snapshot("s1", "Customer orders"));
      embedded.set(0);
      float[][] onA = vectorsOffLoop(vertx, new VectorCache(a, model), entries);
      assertEquals(5, embedded.get());
      embedded.set(0);
      float[][] onB = vectorsOffLoop(vertx, new VectorCache(b, model), entries);
      assertEquals(0, embedded.get(), "node b reads what node a computed");
      for (int i = 0; i < onA.length; i++) {
        assertArrayEquals(onA[i], onB[i]);
      }
    } finally {
      a.close();
      b.close();
      TestDatabases.dropPostgres("TABLE " + table, "SEQUENCE " + table + "_seq");
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void theCodecKeepsDirectionAndRejectsAForeignLength() {
    float[] v = OnnxTextEmbedder.load(1).orElseThrow().embed(List.of("refunds paid to customers"))[0];
    float[] back = VectorCodec.roundTrip(v);
    assertTrue(Vectors.dot(v, back, 0) > 0.9999, "cosine " + Vectors.dot(v, back, 0));
    String text = VectorCodec.encode(v);
    assertArrayEquals(back, VectorCodec.roundTrip(back), 1e-6f, "a decoded vector survives another round trip");
    try {
      VectorCodec.decode(text, 128);
      throw new AssertionError("a 384-component vector must not decode as 128");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("384"));
    }
  }

  private static float[][] vectorsOffLoop(Vertx vertx, VectorCache cache, List<DiscoveryEntry> entries)
      throws Exception {
    // the PostgreSQL store blocks on its own client: call it from a worker thread, as the gateway does
    return vertx.executeBlocking(() -> cache.vectors(entries, null), false).await(120, TimeUnit.SECONDS);
  }

  private static int indexOf(List<DiscoveryEntry> entries, String id) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).id().equals(id)) {
        return i;
      }
    }
    throw new AssertionError("no entry " + id);
  }
}
