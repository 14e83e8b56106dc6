package dev.sluice.loadtest.discovery;

import java.util.ArrayList;
import java.util.List;

/** recall@1, recall@5 and MRR (over the first 10) of one lane or of the fusion. */
final class RetrievalScore {

  static final int DEPTH = 10;

  private int questions;
  private int at1;
  private int at5;
  private double reciprocal;
  private final List<String> misses = new ArrayList<>();

  /** @param rank 1-based rank of the first acceptable ref, or 0 when none is in the first {@link #DEPTH} */
  void add(int rank, String question, List<String> top) {
    questions++;
    at1 += rank == 1 ? 1 : 0;
    at5 += rank >= 1 && rank <= 5 ? 1 : 0;
    reciprocal += rank >= 1 ? 1.0 / rank : 0;
    if (rank != 1) {
      misses.add((rank == 0 ? "none" : "#" + rank) + " " + question + " -> " + top.subList(0, Math.min(3, top.size())));
    }
  }

  double recallAt1() {
    return questions == 0 ? 0 : (double) at1 / questions;
  }

  double recallAt5() {
    return questions == 0 ? 0 : (double) at5 / questions;
  }

  double mrr() {
    return questions == 0 ? 0 : reciprocal / questions;
  }

  int questions() {
    return questions;
  }

  List<String> misses() {
    return misses;
  }

  String line(String label) {
    return String.format("  %-8s recall@1 %.3f (%d/%d)  recall@5 %.3f (%d/%d)  MRR %.3f", label, recallAt1(), at1,
        questions, recallAt5(), at5, questions, mrr());
  }
}
