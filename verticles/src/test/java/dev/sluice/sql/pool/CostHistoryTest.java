package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CostHistoryTest {

  private final CostHistory history = new CostHistory(100);

  CostHistoryTest() {
    for (int i = 0; i < 50; i++) {
      history.record("q", 1.0);
    }
  }

  @Test
  void anUnseenStatementIsExpectedToCostThePoolsMean() {
    assertTrue(history.expectedMs("other") > 1.0, "the pool's mean moves slowly from its start");
    assertEquals(1.0, history.expectedMs("q"), 0.01);
  }

  @Test
  void oneStretchedCallMovesTheExpectationLittle() {
    history.record("q", 40.0);
    assertTrue(history.expectedMs("q") < 2.0, "one pause is not a new cost: " + history.expectedMs("q"));
  }

  @Test
  void aPlanThatGotSlowerShowsWithinTenCalls() {
    for (int i = 0; i < 10; i++) {
      history.record("q", 500.0);
    }
    assertTrue(history.expectedMs("q") > 250, "expected " + history.expectedMs("q"));
  }
}
