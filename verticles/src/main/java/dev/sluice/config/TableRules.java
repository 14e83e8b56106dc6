package dev.sluice.config;

import java.util.List;

/**
 * One principal's table and column policy on one connection. Patterns are globs ({@code *},
 * {@code ?}), matched case-insensitively: {@code schema.table} when they contain a dot, else the
 * bare table name in any schema.
 *
 * @param allow tables it may read; empty means every table not denied
 * @param deny tables it may not read, even when allowed
 * @param denyColumns {@code table.column} (table part may be a glob, or {@code schema.table})
 */
public record TableRules(List<String> allow, List<String> deny, List<String> denyColumns) {

  public TableRules {
    allow = List.copyOf(allow);
    deny = List.copyOf(deny);
    denyColumns = List.copyOf(denyColumns);
  }
}
