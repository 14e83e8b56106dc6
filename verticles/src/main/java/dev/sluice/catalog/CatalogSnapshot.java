package dev.sluice.catalog;

import java.util.List;

/**
 * One connection's schema and value profile at one moment. Immutable; a rescan writes a new
 * snapshot with a new {@code syncId} that replaces this one.
 *
 * @param syncId unique per scan; every cache keys on it
 * @param extractedAt ISO-8601 UTC of the scan's start
 * @param problems objects that were skipped, with why
 */
public record CatalogSnapshot(
    String connectionId,
    String driver,
    String syncId,
    String extractedAt,
    long scanMs,
    List<CatalogTable> tables,
    List<ScanProblem> problems,
    ProfileInfo profile) {

  public CatalogSnapshot {
    tables = List.copyOf(tables);
    problems = List.copyOf(problems);
  }
}
