package dev.sluice.loadtest.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A frozen evaluation question and the refs that answer it ({@code table}, {@code table.column},
 * {@code wiki:key}, {@code sl_measure:source.measure}, ...).
 */
record EvalQuestion(String connection, String text, Set<String> answers) {

  /**
   * SQLite's default schema: discovery names a SQLite table without it ({@code students}), and an
   * answer list may spell the same table {@code main.students}.
   */
  private static final String SQLITE_MAIN = "main.";

  static List<EvalQuestion> load(String file) {
    String path = "/discovery-eval/" + file;
    try (InputStream in = EvalQuestion.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no question file " + path);
      }
      List<EvalQuestion> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        Set<String> answers = new LinkedHashSet<>();
        for (String ref : f[2].split(",")) {
          answers.add(ref.startsWith(SQLITE_MAIN) ? ref.substring(SQLITE_MAIN.length()) : ref);
        }
        out.add(new EvalQuestion(f[0], f[1], Set.copyOf(answers)));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How a hit is written in the answer lists: wiki and semantic-layer refs carry their kind. */
  static String refOf(String kind, String id) {
    return kind.equals("table") || kind.equals("column") ? id : kind + ":" + id;
  }
}
