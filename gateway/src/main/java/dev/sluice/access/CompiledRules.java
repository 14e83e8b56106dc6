package dev.sluice.access;

import dev.sluice.config.TableRules;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One principal's table rules on one connection with their globs compiled: a pattern with a dot
 * matches {@code schema.table}, without one the table name in any schema; matching ignores case.
 */
final class CompiledRules {
  final TableRules rules;
  private final List<Pattern> allow = new ArrayList<>();
  private final List<Pattern> deny = new ArrayList<>();
  private final List<Pattern[]> deniedColumns = new ArrayList<>();

  CompiledRules(TableRules rules) {
    this.rules = rules;
    rules.allow().forEach(p -> allow.add(glob(p)));
    rules.deny().forEach(p -> deny.add(glob(p)));
    for (String dc : rules.denyColumns()) {
      int dot = dc.lastIndexOf('.');
      deniedColumns.add(new Pattern[] {glob(dc.substring(0, dot)), glob(dc.substring(dot + 1))});
    }
  }

  boolean tableAllowed(String schema, String table) {
    boolean allowed = allow.isEmpty() || allow.stream().anyMatch(p -> matches(p, schema, table));
    return allowed && deny.stream().noneMatch(p -> matches(p, schema, table));
  }

  boolean columnDenied(String schema, String table, String column) {
    for (Pattern[] d : deniedColumns) {
      if (matches(d[0], schema, table) && d[1].matcher(column.toLowerCase(Locale.ROOT)).matches()) {
        return true;
      }
    }
    return false;
  }

  boolean hasDeniedColumns(String schema, String table) {
    return deniedColumns.stream().anyMatch(d -> matches(d[0], schema, table));
  }

  /** How many deny_columns rules there are; rule {@code r} denies a column when both its patterns match. */
  int deniedColumnRules() {
    return deniedColumns.size();
  }

  boolean ruleTableMatches(int r, String schema, String table) {
    return matches(deniedColumns.get(r)[0], schema, table);
  }

  /** @param column lower case */
  boolean ruleColumnMatches(int r, String column) {
    return deniedColumns.get(r)[1].matcher(column).matches();
  }

  /** The allow list for a refusal; the deny list stays out of it, since it names what the policy hides. */
  String allowDescription() {
    Set<String> out = new LinkedHashSet<>(rules.allow().isEmpty() ? List.of("every table") : rules.allow());
    return rules.deny().isEmpty() ? out.toString() : out + " except the tables your policy denies";
  }

  /** A pattern with a dot matches schema.table; without, the table name in any schema. */
  private static boolean matches(Pattern p, String schema, String table) {
    String t = table.toLowerCase(Locale.ROOT);
    String qualified = (schema == null ? "" : schema.toLowerCase(Locale.ROOT)) + "." + t;
    return p.pattern().contains("\\.") ? p.matcher(qualified).matches() : p.matcher(t).matches();
  }

  private static Pattern glob(String g) {
    StringBuilder re = new StringBuilder();
    for (char ch : g.toLowerCase(Locale.ROOT).toCharArray()) {
      switch (ch) {
        case '*' -> re.append(".*");
        case '?' -> re.append('.');
        case '.' -> re.append("\\.");
        default -> re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    return Pattern.compile(re.toString());
  }
}
