package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Fusion by rank, and who wins a tie. */
class RrfTest {

  private static List<Integer> order(Rrf rrf) {
    return rrf.top(10).stream().map(Rrf.Fused::ord).toList();
  }

  @Test
  void agreementBetweenLanesBeatsOneLanesFirstPlace() {
    Rrf rrf = new Rrf();
    rrf.add(Lane.LEXICAL, List.of(7, 3));
    rrf.add(Lane.DENSE, List.of(9, 3));
    assertEquals(3, order(rrf).get(0));
  }

  @Test
  void aTieGoesToTheLiteralLanesChoiceNotToEntryOrder() {
    // "revenue": the lexical lane puts the measure named revenue (5) first, the model line_revenue (3)
    Rrf rrf = new Rrf();
    rrf.add(Lane.LEXICAL, List.of(5, 3));
    rrf.add(Lane.DENSE, List.of(3, 5));
    assertEquals(List.of(5, 3), order(rrf));
    assertEquals(rrf.top(2).get(0).score(), rrf.top(2).get(1).score());
  }

  @Test
  void withoutTheLexicalLaneTheTypoLaneBreaksTheTie() {
    Rrf rrf = new Rrf();
    rrf.add(Lane.TYPO, List.of(8, 2));
    rrf.add(Lane.DENSE, List.of(2, 8));
    assertEquals(List.of(8, 2), order(rrf));
  }

  @Test
  void aTieWithAnEntryOnlyTheModelRankedGoesToTheLiteralOne() {
    // each first in one lane: the entry the lexical lane ranked wins, though it comes later
    Rrf rrf = new Rrf();
    rrf.add(Lane.DENSE, List.of(1));
    rrf.add(Lane.LEXICAL, List.of(4));
    assertEquals(List.of(4, 1), order(rrf));
  }
}
