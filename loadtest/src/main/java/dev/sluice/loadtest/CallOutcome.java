package dev.sluice.loadtest;

/**
 * What one call did.
 *
 * @param scenario scenario name
 * @param latencyNanos from sending the request to the final result (or end of stream)
 * @param firstProgressNanos from sending to the first notifications/progress; -1 if none came
 * @param progressEvents notifications/progress received for this call
 * @param kind whether the call succeeded, failed as intended, or failed unexpectedly
 * @param label error_type or failure description; null for success
 */
public record CallOutcome(String scenario, long latencyNanos, long firstProgressNanos, int progressEvents,
    Kind kind, String label) {

  /** How a call ended, relative to what its scenario intended. */
  public enum Kind { OK, EXPECTED_ERROR, UNEXPECTED_ERROR }

  static CallOutcome unexpected(String scenario, long latencyNanos, String label) {
    return new CallOutcome(scenario, latencyNanos, -1, 0, Kind.UNEXPECTED_ERROR, label);
  }
}
