package dev.sluice.catalog;

/** One column of a foreign key, with its fully qualified target. */
public record CatalogForeignKey(
    String fromColumn, String toCatalog, String toDb, String toTable, String toColumn, String constraintName) {}
