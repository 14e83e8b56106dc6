package dev.sluice.catalog;

/**
 * An object the scan could not read (permission denied, deadline, broken view). It is recorded and
 * skipped; the rest of the snapshot stands.
 *
 * @param object the table display name, or the scan step
 * @param errorType the error category ({@code permission_denied}, {@code timeout}...)
 */
public record ScanProblem(String object, String errorType, String message) {}
