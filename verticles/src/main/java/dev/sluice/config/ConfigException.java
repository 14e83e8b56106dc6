package dev.sluice.config;

/**
 * A user mistake in the configuration. The message is one line that names the offending key (e.g.
 * {@code connections[1].query_timeout_ms: must be a positive integer, got "abc"}); the command
 * line prints it and exits non-zero without a stack trace.
 */
public final class ConfigException extends RuntimeException {

  private final String key;

  public ConfigException(String key, String problem) {
    super(key + ": " + problem, null, false, false);
    this.key = key;
  }

  /** The dotted path of the offending key, e.g. {@code server.port}. */
  public String key() {
    return key;
  }
}
