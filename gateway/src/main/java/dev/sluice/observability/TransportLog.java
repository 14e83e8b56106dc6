package dev.sluice.observability;

import static net.logstash.logback.argument.StructuredArguments.kv;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * transport.error: a message a transport could not take or deliver (unparseable JSON, not
 * JSON-RPC, a broken connection, a stdout that failed). The client sees a JSON-RPC error or a
 * closed stream; this is the operator's side of the same event (the contract of the feature
 * log, spec 000). Warn, not error: a client's malformed bytes are not the gateway failing.
 */
public final class TransportLog {

  private static final Logger LOG = LoggerFactory.getLogger("sluice.transport");

  private TransportLog() {}

  /**
   * @param transport {@code http} or {@code stdio}
   * @param sessionId null before a session exists
   */
  public static void error(String transport, String sessionId, String problem, String detail) {
    LOG.warn("transport.error", kv("transport", transport), kv("sessionId", sessionId), kv("problem", problem),
        kv("error", detail));
  }
}
