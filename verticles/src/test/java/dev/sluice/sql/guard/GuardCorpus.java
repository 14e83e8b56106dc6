package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The guard's corpora (src/test/resources/guard): statements separated by a line {@code -- @@};
 * a refusal entry may start with {@code -- rule: <id>}. Each dialect gets the common file plus its
 * own.
 */
public final class GuardCorpus {

  /** One corpus statement and, for refusals, the rule it must trip. */
  public record Entry(String sql, String rule) {}

  private GuardCorpus() {}

  public static List<Entry> accept(Dialect d) {
    return both("accept", d);
  }

  public static List<Entry> refuse(Dialect d) {
    return both("refuse", d);
  }

  private static List<Entry> both(String kind, Dialect d) {
    List<Entry> all = new ArrayList<>(read("common-" + kind + ".sql"));
    all.addAll(read(d.name().toLowerCase(Locale.ROOT) + "-" + kind + ".sql"));
    return all;
  }

  static List<Entry> read(String file) {
    try (InputStream in = GuardCorpus.class.getResourceAsStream("/guard/" + file)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      List<Entry> out = new ArrayList<>();
      for (String chunk : text.split("(?m)^-- @@\\s*$")) {
        String rule = null;
        String body = chunk.replaceFirst("^\\n", "");
        if (body.startsWith("-- rule: ")) {
          int nl = body.indexOf('\n');
          rule = body.substring(9, nl).trim();
          body = body.substring(nl + 1);
        }
        String sql = body.replaceAll("\\n$", "");
        if (!sql.isBlank() || rule != null) {
          out.add(new Entry(sql, rule));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
