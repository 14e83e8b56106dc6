package dev.sluice.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL Client Templates text ({@code #{name}} placeholders): the names it uses, a guard-readable
 * copy, and the positional form for engines without templates (the SQLite worker binds {@code ?}).
 */
public final class TemplateSql {

  public static final Pattern PLACEHOLDER = Pattern.compile("#\\{([A-Za-z_][A-Za-z0-9_]*)}");

  private TemplateSql() {}

  public static Set<String> names(String sql) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = PLACEHOLDER.matcher(sql);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** Placeholders read as NULL: the same statement shape for the read-only guard. */
  public static String forGuard(String sql) {
    return PLACEHOLDER.matcher(sql).replaceAll("NULL");
  }

  /** Trailing semicolons and blanks removed, as the guard would. */
  public static String trimmed(String sql) {
    return sql.strip().replaceAll(";+\\s*$", "");
  }

  /** {@code ?} for each placeholder, and the names in the order they appear (repeats included). */
  public static Positional positional(String sql) {
    List<String> order = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(trimmed(sql));
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      order.add(m.group(1));
      m.appendReplacement(b, "?");
    }
    m.appendTail(b);
    return new Positional(b.toString(), order);
  }

  public record Positional(String sql, List<String> names) {}
}
