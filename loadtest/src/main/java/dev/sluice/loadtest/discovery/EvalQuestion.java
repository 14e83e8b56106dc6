package dev.sluice.loadtest.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A frozen evaluation question and the refs that answer it ({@code table}, {@code table.column},
 * {@code wiki:key}, {@code sl_measure:source.measure}, ...).
 */
record EvalQuestion(String connection, String text, Set<String> answers) {

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
        out.add(new EvalQuestion(f[0], f[1], Set.of(f[2].split(","))));
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
