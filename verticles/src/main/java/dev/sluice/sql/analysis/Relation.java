package dev.sluice.sql.analysis;

import java.util.Locale;

/**
 * A base relation a statement reads: a table or view named in a FROM clause (or TABLE, or a join),
 * after scoping took out CTE names and derived tables. Names are decoded (quotes and escapes
 * resolved); {@code schema} is null when the statement did not qualify the name.
 *
 * @param function true for a table function in FROM ({@code generate_series(...)}, {@code
 *     pragma_table_info(...)}): its name is a function's, not a table's
 */
public record Relation(String schema, String name, boolean function) {

  /** {@code schema.name}, or the bare name. */
  public String qualified() {
    return schema == null ? name : schema + "." + name;
  }

  public boolean named(String other) {
    return name.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
  }
}
