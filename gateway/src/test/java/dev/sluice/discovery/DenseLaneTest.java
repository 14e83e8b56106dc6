package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The dense lane's table-or-column decision. */
class DenseLaneTest {

  /** Entry 0 is a table, 1 to 3 its columns; each vector scores {@code s} against the query (1, 0). */
  private static DenseLane.Ranking rank(float table, float... columns) {
    return rank(SimilarityScale.AS_IS, table, columns);
  }

  private static DenseLane.Ranking rank(SimilarityScale scale, float table, float... columns) {
    float[][] v = new float[1 + columns.length][];
    v[0] = unit(table);
    int[] parent = new int[v.length];
    parent[0] = -1;
    for (int i = 0; i < columns.length; i++) {
      v[i + 1] = unit(columns[i]);
      parent[i + 1] = 0;
    }
    return new DenseLane(v, 2, parent, scale).rank(new float[] {1, 0}, ord -> true, 10);
  }

  private static float[] unit(float s) {
    return new float[] {s, (float) Math.sqrt(1 - s * s)};
  }

  @Test
  void aTableComesBeforeAColumnThatDoesNotStandOut() {
    // "consulting rooms": the table's columns are about as close as the table itself
    DenseLane.Ranking r = rank(0.50f, 0.55f, 0.45f, 0.30f);
    assertEquals(List.of(0, 1, 2), r.ords(), "column 3 is more than BELOW_BEST under the head");
    assertEquals(Set.of(), r.columnsOverTables());
  }

  @Test
  void aColumnTheQueryNamesComesBeforeItsTable() {
    // "patients' date of birth": dob far closer than the patient table and its other columns
    DenseLane.Ranking r = rank(0.37f, 0.82f, 0.49f, 0.45f);
    assertEquals(List.of(1, 0), r.ords().subList(0, 2));
    assertEquals(Set.of(1), r.columnsOverTables());
  }

  @Test
  void aColumnCloseToASiblingDoesNotWin() {
    // two columns alike (billing interval, mrr): the query is about the table's subject
    DenseLane.Ranking r = rank(0.40f, 0.68f, 0.65f, 0.30f);
    assertEquals(0, r.ords().get(0));
    assertEquals(Set.of(), r.columnsOverTables());
  }

  @Test
  void theFloorAndMarginsReadTheModelsScale() {
    // on bge-small's scale (everything higher, closer together) a cosine of 0.42 is unrelated text
    SimilarityScale bge = EmbeddingModel.BGE_SMALL_Q.scale;
    assertEquals(List.of(), rank(bge, 0.42f, 0.41f).ords(), "under the floor once read on its scale");
    assertEquals(List.of(0, 1), rank(SimilarityScale.AS_IS, 0.42f, 0.41f).ords());
    // 0.17 over the table and 0.12 over the sibling: the column stands out on either scale
    assertEquals(Set.of(1), rank(bge, 0.65f, 0.82f, 0.70f).columnsOverTables());
    assertEquals(Set.of(1), rank(SimilarityScale.AS_IS, 0.65f, 0.82f, 0.70f).columnsOverTables());
    // 0.09 stands out once widened by bge's factor, not on MiniLM's own scale
    assertEquals(Set.of(), rank(SimilarityScale.AS_IS, 0.65f, 0.74f, 0.68f).columnsOverTables());
    assertEquals(Set.of(1), rank(bge, 0.65f, 0.74f, 0.68f).columnsOverTables());
  }

  @Test
  void aTableWithSeveralCloseTextsBeatsOneWithASingleCloseColumn() {
    // table 0 (own 0.52) has one close column (0.60); table 3 (own 0.50) two (0.58, 0.57): the
    // second is more likely what the question is about, though its best column is further
    float[][] v = {unit(0.52f), unit(0.60f), unit(0.30f), unit(0.50f), unit(0.58f), unit(0.57f)};
    int[] parent = {-1, 0, 0, -1, 3, 3};
    DenseLane.Ranking r = new DenseLane(v, 2, parent, SimilarityScale.AS_IS).rank(new float[] {1, 0}, ord -> true, 10);
    assertEquals(List.of(3, 0, 1, 4, 5), r.ords().subList(0, 5));
  }

  @Test
  void theSoftMaximumStaysCloseToTheBest() {
    float inf = Float.NEGATIVE_INFINITY;
    assertEquals(0.60f, DenseLane.softMax(inf, 0.60f, inf, inf), 1e-6);
    assertEquals(0.60f, DenseLane.softMax(0.10f, 0.60f, 0.10f, 0.10f), 1e-3);
    // three equal texts: ln 3 times the softness above them, and a fourth does not count
    float three = 0.60f + DenseLane.GROUP_SOFTNESS * (float) Math.log(3);
    assertEquals(three, DenseLane.softMax(0.60f, 0.60f, 0.60f, inf), 1e-5);
    assertEquals(three, DenseLane.softMax(0.60f, 0.60f, 0.60f, 0.60f), 1e-5);
  }
}
