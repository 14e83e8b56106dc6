package dev.sluice.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** One contract, two stores: the directory store and the PostgreSQL store answer alike. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StateStoreTest {

  private Vertx vertx;
  private String table;
  private PgStateStore pg;
  private DirectoryStateStore dir;

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    dir = new DirectoryStateStore(Files.createTempDirectory("sluice-state"));
    TestDatabases.requirePostgres();
    table = TestDatabases.uniqueName("sluice_state_t");
    pg = new PgStateStore(vertx, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), table);
    pg.init().await(30, TimeUnit.SECONDS);
  }

  @AfterAll
  void close() throws Exception {
    if (pg != null) {
      TestDatabases.dropPostgres("TABLE " + table, "SEQUENCE " + table + "_seq");
      pg.close();
    }
    vertx.close().await(30, TimeUnit.SECONDS);
  }


  @Test
  void directoryStore() throws Exception {
    contract(dir);
  }

  @Test
  void postgresStore() throws Exception {
    contract(pg);
    leases(pg);
  }

  private void contract(StateStore s) throws Exception {
    String area = "wiki";
    assertTrue(s.get(area, "a.md").isEmpty());
    assertTrue(s.version(area, "a.md").isEmpty());
    String empty = s.areaVersion(area);
    assertTrue(s.create(area, "a.md", "first"));
    assertFalse(s.create(area, "a.md", "second"), "create never clobbers");
    assertEquals("first", s.get(area, "a.md").orElseThrow().text());
    String v1 = s.version(area, "a.md").orElseThrow();
    String areaV1 = s.areaVersion(area);
    assertNotEquals(empty, areaV1);
    Thread.sleep(5);
    s.put(area, "a.md", "replaced, with ünïcode");
    assertEquals("replaced, with ünïcode", s.get(area, "a.md").orElseThrow().text());
    assertNotEquals(v1, s.version(area, "a.md").orElseThrow(), "a replaced entry has a new version");
    assertNotEquals(areaV1, s.areaVersion(area));
    s.put(area, "b.md", "b");
    s.put("other", "c.md", "elsewhere");
    assertEquals(List.of("a.md", "b.md"), s.all(area).stream().map(StateStore.Entry::key).toList());
    assertEquals(s.areaVersion(area), s.areaVersion(area), "stable while nothing changes");
    String beforeRemove = s.areaVersion(area);
    s.put(area, "gone.md", "x");
    s.remove(area, "gone.md");
    s.remove(area, "never-there.md");
    assertTrue(s.get(area, "gone.md").isEmpty());
    s.remove(area, "b.md");
    assertNotEquals(beforeRemove, s.areaVersion(area), "a removal changes the area's version");
    s.put(area, "b.md", "b");
    assertEquals(List.of("a.md", "b.md"), s.all(area).stream().map(StateStore.Entry::key).toList());
    assertThrows(IllegalArgumentException.class, () -> s.put(area, "../escape", "x"));
    assertThrows(IllegalArgumentException.class, () -> s.put(area, ".hidden", "x"));

    // forty writers race to create one key: exactly one wins, nobody's text is torn
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> racers = IntStream.range(0, 40)
          .mapToObj(i -> pool.submit(() -> s.create(area, "race.md", "writer " + i))).toList();
      int won = 0;
      for (Future<Boolean> f : racers) {
        won += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
      }
      assertEquals(1, won);
      assertTrue(s.get(area, "race.md").orElseThrow().text().matches("writer \\d+"));
    } finally {
      pool.shutdownNow();
    }

    s.put("ingest/runs", "r1.json", "{}");
    assertTrue(s.claim("ingest/runs", "r1.json", "node-a", 60_000));
    assertTrue(s.claim("ingest/runs", "r1.json", "node-a", 60_000), "a claim is re-entrant for its owner");
    assertFalse(s.claim("ingest/runs", "r1.json", "node-b", 60_000), "a live claim excludes others");
    s.release("ingest/runs", "r1.json", "node-a");
    assertTrue(s.claim("ingest/runs", "r1.json", "node-b", 60_000), "a released entry can be claimed");
    s.release("ingest/runs", "r1.json", "node-b");

    s.putClaimed("ingest/runs", "r4.json", "{\"v\":1}", "node-a", 60_000);
    assertEquals("{\"v\":1}", s.get("ingest/runs", "r4.json").orElseThrow().text());
    assertFalse(s.claim("ingest/runs", "r4.json", "node-b", 60_000), "written claimed: nobody else may take it");
    assertTrue(s.claim("ingest/runs", "r4.json", "node-a", 60_000));
  }

  /** A node that stops renewing loses its claims once the lease lapses; one that renews keeps them. */
  private void leases(StateStore s) throws Exception {
    s.put("ingest/runs", "r2.json", "{}");
    s.put("ingest/runs", "r3.json", "{}");
    assertTrue(s.claim("ingest/runs", "r2.json", "dead", 1_000));
    assertTrue(s.claim("ingest/runs", "r3.json", "alive", 1_000));
    assertEquals(List.of(), s.lapsed("ingest/runs"));
    for (int i = 0; i < 6; i++) {
      Thread.sleep(300);
      s.renew("alive", 1_000);
    }
    assertEquals(List.of("r2.json"), s.lapsed("ingest/runs"));
    assertFalse(s.claim("ingest/runs", "r3.json", "thief", 1_000), "renewed claims hold");
    assertTrue(s.claim("ingest/runs", "r2.json", "heir", 60_000), "a lapsed claim is taken over");
    assertEquals(List.of(), s.lapsed("ingest/runs"));
    // an entry written claimed by a node that dies at once lapses like any claim
    s.putClaimed("ingest/runs", "r5.json", "{}", "dies-after-write", 500);
    Thread.sleep(800);
    assertEquals(List.of("r5.json"), s.lapsed("ingest/runs"));
  }

  /** Nodes starting together all create the same table: every one of them must come up. */
  @Test
  void manyNodesInitializingOneFreshStoreAtOnceAllSucceed() throws Exception {
    // three rounds: one round passed now and then even while the creates raced (CI caught it)
    for (int round = 0; round < 3; round++) {
      String fresh = TestDatabases.uniqueName("sluice_state_race");
      List<PgStateStore> stores = IntStream.range(0, 8)
          .mapToObj(i -> new PgStateStore(vertx, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), fresh)).toList();
      try {
        io.vertx.core.Future.all(stores.stream().map(PgStateStore::init).toList()).await(60, TimeUnit.SECONDS);
        stores.get(0).put("wiki", "x.md", "x");
        assertEquals("x", stores.get(7).get("wiki", "x.md").orElseThrow().text());
      } finally {
        stores.forEach(PgStateStore::close);
        TestDatabases.dropPostgres("TABLE " + fresh, "SEQUENCE " + fresh + "_seq");
      }
    }
  }

}
