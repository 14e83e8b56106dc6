package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.analysis.Relation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine-independent part of leaving the reset out: which names are kept, and for how long. */
class RelationStandingsTest {

  private final RelationStandings standings = new RelationStandings(a -> true);

  @Test
  void aStandingHoldsUntilItIsOldAndANameIsLookedUpOnce() {
    List<Relation> read = List.of(new Relation("shop", "orders", false), new Relation(null, "customers", false),
        new Relation("shop", "orders", false));
    assertFalse(standings.allNeutral(read, 0));
    assertEquals(List.of("shop.orders", "customers"), standings.toLookUp(read, 0));
    standings.learned("shop.orders", true, 0);
    assertFalse(standings.allNeutral(read, 1), "one name still unknown");
    standings.learned("customers", true, 0);
    assertTrue(standings.allNeutral(read, RelationStandings.TTL_MS));
    assertFalse(standings.allNeutral(read, RelationStandings.TTL_MS + 1));
    standings.learned("customers", null, 2);
    assertFalse(standings.allNeutral(read, 3), "no such relation is not neutral");
    assertTrue(standings.allNeutral(List.of(), 0), "a read of no relation");
    assertFalse(standings.neutral(null, 0), "no analysis is never neutral");
    assertEquals(List.of(), standings.toLookUp((dev.sluice.sql.analysis.AnalysedStatement) null, 0));
  }

  @Test
  void aNeutralStandingReadLatelyIsAskedAgainOnceAheadOfItsExpiry() {
    List<Relation> orders = List.of(new Relation(null, "orders", false));
    standings.learned("orders", true, 0);
    standings.learned("views_of", false, 0);
    standings.learned("unread", true, 0);
    long due = RelationStandings.REFRESH_AFTER_MS + 1;
    assertTrue(standings.allNeutral(orders, 10));
    assertEquals(List.of(), standings.dueForRefresh(RelationStandings.REFRESH_AFTER_MS, 16), "not yet due");
    assertEquals(java.util.Set.of("orders", "unread"), java.util.Set.copyOf(standings.dueForRefresh(due, 16)),
        "neutral standings only");
    assertEquals(List.of(), standings.dueForRefresh(due + 1, 16), "claimed: one look-up at a time");
    standings.notLearned("orders");
    assertEquals(List.of("orders"), standings.dueForRefresh(due + 2, 16), "no answer: the next round asks again");
    standings.learned("orders", true, due + 3);
    standings.learned("unread", true, due + 3);
    long lastRead = RelationStandings.TTL_MS + 1;
    assertTrue(standings.allNeutral(orders, lastRead), "refreshed before it expired");
    assertEquals(List.of(), standings.dueForRefresh(due + 4, 16), "fresh again");
    long later = lastRead + RelationStandings.KEEP_FRESH_MS + 1;
    assertEquals(List.of("orders"), standings.dueForRefresh(later - 1, 16), "read lately: kept fresh");
    standings.learned("orders", true, later - 1);
    assertEquals(List.of(), standings.dueForRefresh(later + due, 16), "no read for longer than it keeps fresh");
    assertFalse(standings.allNeutral(orders, later + 2 * due), "so it expires");
  }

  @Test
  void aRoundClaimsAtMostItsShareOfLookUps() {
    for (int i = 0; i < 5; i++) {
      standings.learned("t" + i, true, 0);
    }
    long due = RelationStandings.REFRESH_AFTER_MS + 1;
    assertEquals(2, standings.dueForRefresh(due, 2).size());
    assertEquals(2, standings.dueForRefresh(due, 2).size(), "the next round, the next ones");
    assertEquals(1, standings.dueForRefresh(due, 2).size());
    assertEquals(List.of(), standings.dueForRefresh(due, 2));
  }

  @Test
  void theCacheKeepsAtMostItsBoundOfNames() {
    for (int i = 0; i <= RelationStandings.MAX_NAMES; i++) {
      standings.learned("t" + i, true, 0);
    }
    assertFalse(standings.allNeutral(List.of(new Relation(null, "t0", false)), 1), "the eldest went");
    assertTrue(standings.allNeutral(List.of(new Relation(null, "t" + RelationStandings.MAX_NAMES, false)), 1));
  }

  @Test
  void aPlainNameIsLowerCaseLettersDigitsAndUnderscores() {
    for (String ok : List.of("t", "_t", "orders_2026", "a1_b2")) {
      assertTrue(RelationStandings.plainName(ok), ok);
    }
    for (String bad : List.of("", "1t", "Orders", "t-x", "t.x", "t x", "é", "t\u0000", "t'", "t\\")) {
      assertFalse(RelationStandings.plainName(bad), bad);
    }
    assertFalse(RelationStandings.plainNames(List.of(new Relation(null, "json_table", true))), "a table function");
    assertFalse(RelationStandings.plainNames(List.of(new Relation("Shop", "t", false))), "a schema in capitals");
    assertTrue(RelationStandings.plainNames(List.of(new Relation("shop", "t", false))));
  }
}
