package dev.sluice.observability;

import ch.qos.logback.core.PropertyDefinerBase;
import java.util.Locale;

/**
 * Picks the log format at start (logback.xml {@code <define>}): {@code text}, readable lines for a
 * person at a terminal, or {@code json}, one object per line for log shippers. {@code
 * SLUICE_LOG_FORMAT} (or {@code -Dsluice.log.format}) decides when set; otherwise text when stdout
 * is a terminal, else JSON.
 */
public final class ConsoleLogFormat extends PropertyDefinerBase {

  @Override
  public String getPropertyValue() {
    String configured = System.getProperty("sluice.log.format", System.getenv("SLUICE_LOG_FORMAT"));
    return choose(configured, stdoutIsTerminal());
  }

  /**
   * On Linux, whether fd 1 is a tty or pty; elsewhere {@link System#console()}, which also needs
   * stdin to be a terminal (a gateway started with {@code &} has /dev/null there).
   */
  static boolean stdoutIsTerminal() {
    java.nio.file.Path fd1 = java.nio.file.Path.of("/proc/self/fd/1");
    try {
      String target = java.nio.file.Files.readSymbolicLink(fd1).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /** The appender name logback.xml defines for each format. */
  static String choose(String configured, boolean terminal) {
    if (configured != null && !configured.isBlank()) {
      String f = configured.trim().toLowerCase(Locale.ROOT);
      if (f.equals("json") || f.equals("text")) {
        return f;
      }
      // a typo must not silence the logs: say so once, then fall back to the automatic choice
      System.err.println("sluice: SLUICE_LOG_FORMAT must be json or text, got \"" + configured + "\"; using "
          + (terminal ? "text" : "json"));
    }
    return terminal ? "text" : "json";
  }
}
