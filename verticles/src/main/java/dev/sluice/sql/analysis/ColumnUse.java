package dev.sluice.sql.analysis;

import java.util.List;

/**
 * A column a statement references, with the base relations it may belong to after scoping: the
 * one its qualifier names, or, unqualified, every base relation in scope at its query level and
 * the levels around it (a correlated reference may reach outward). An empty list means it belongs
 * to a derived table or CTE whose own columns were analysed where they were selected.
 *
 * @param relations indexes into {@link AnalysedStatement#relations()}
 */
public record ColumnUse(String qualifier, String name, List<Integer> relations) {}
