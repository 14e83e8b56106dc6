package dev.sluice.sql.guard;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One engine's function allow-list: every function an agent may call, by decoded name, with its
 * category; anything else is refused. Read from a {@code functions.txt} resource in the engine's
 * package, one function a line: {@code name<TAB>category}, or {@code name<TAB>never<TAB>why} for
 * functions refused even when everything else is allowed (files, programs, settings, locks, other
 * sessions, statements given as text).
 *
 * <p>Categories {@link #GOVERNED_NEVER} are refused to a principal under a table policy as well:
 * they read the catalog or name tables in strings, which a policy cannot follow.
 */
public final class FunctionRules {

  /** The categories a file may use. */
  public static final Set<String> CATEGORIES = Set.of("aggregate", "window", "math", "string", "datetime", "json",
      "xml", "array", "range", "textsearch", "network", "geometry", "uuid", "binary", "conditional", "format",
      "info", "sequence", "catalog", "tableref", "never");

  /**
   * Refused for governed principals: {@code catalog} (introspection: object definitions, sizes,
   * privileges, name-to-oid look-ups) and {@code tableref} (functions that read a table or schema
   * named in a string argument).
   */
  public static final Set<String> GOVERNED_NEVER = Set.of("catalog", "tableref");

  /** The answer for one function name. */
  public record Verdict(boolean allowed, String category, String why) {}

  private final Map<String, String> category;
  private final Map<String, String> never;

  private FunctionRules(Map<String, String> category, Map<String, String> never) {
    this.category = category;
    this.never = never;
  }

  /** Loads {@code functions.txt} next to {@code anchor} (an engine's class). */
  public static FunctionRules load(Class<?> anchor) {
    try (InputStream in = anchor.getResourceAsStream("functions.txt")) {
      if (in == null) {
        throw new IllegalStateException("no functions.txt beside " + anchor.getName());
      }
      return parse(anchor.getPackageName(), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static FunctionRules parse(String source, InputStream in) throws IOException {
    Map<String, String> category = new HashMap<>();
    Map<String, String> never = new HashMap<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    int no = 0;
    while ((line = r.readLine()) != null) {
      no++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      String name = f[0].strip().toLowerCase(Locale.ROOT);
      String cat = f.length > 1 ? f[1].strip() : "";
      if (!CATEGORIES.contains(cat) || name.isEmpty()) {
        throw new IllegalStateException(source + "/functions.txt line " + no + ": '" + line
            + "' needs name<TAB>category with a category of " + new TreeSet<>(CATEGORIES));
      }
      if (cat.equals("never")) {
        never.put(name, f.length > 2 ? f[2].strip() : "it reaches beyond reading rows");
      } else if (category.put(name, cat) != null) {
        throw new IllegalStateException(source + "/functions.txt line " + no + ": " + name + " listed twice");
      }
    }
    for (String n : never.keySet()) {
      if (category.containsKey(n)) {
        throw new IllegalStateException(source + "/functions.txt: " + n + " is both allowed and never");
      }
    }
    return new FunctionRules(Map.copyOf(category), Map.copyOf(never));
  }

  /** Whether {@code name} (decoded, any case) may be called, by a governed principal or not. */
  public Verdict of(String name, boolean governed) {
    String n = name.toLowerCase(Locale.ROOT);
    String why = never.get(n);
    if (why != null) {
      return new Verdict(false, "never", why);
    }
    String cat = category.get(n);
    if (cat == null) {
      return new Verdict(false, null, "it is not on this engine's list of functions agents may call");
    }
    if (governed && GOVERNED_NEVER.contains(cat)) {
      return new Verdict(false, cat, cat.equals("catalog")
          ? "it reads the database catalog, which your table policy may hide"
          : "it reads a table or schema named in a string, which your table policy cannot follow");
    }
    return new Verdict(true, cat, null);
  }

  /** Whether the name is on the never list (refused wherever it appears, even uncalled). */
  public boolean never(String name) {
    return never.containsKey(name.toLowerCase(Locale.ROOT));
  }

  /** Allowed names of one category, sorted (for tests and docs). */
  public List<String> names(String cat) {
    return category.entrySet().stream().filter(e -> e.getValue().equals(cat)).map(Map.Entry::getKey).sorted()
        .toList();
  }

  public Set<String> neverNames() {
    return Collections.unmodifiableSet(never.keySet());
  }

  public int size() {
    return category.size();
  }
}
