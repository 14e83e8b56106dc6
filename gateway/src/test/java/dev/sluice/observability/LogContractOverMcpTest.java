package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The structured log lines the feature log (spec 000) promises, as a real gateway writes them:
 * session.open and session.close around a session, tool.end at error with the message for a failed
 * call, transport.error for a body that is not JSON.
 */
class LogContractOverMcpTest {

  private final ListAppender<ILoggingEvent> seen = new ListAppender<>();
  private final List<Logger> loggers = List.of("sluice.session", "sluice.tool", "sluice.transport").stream()
      .map(n -> (Logger) LoggerFactory.getLogger(n)).toList();

  @BeforeEach
  void listen() {
    seen.start();
    loggers.forEach(l -> l.addAppender(seen));
  }

  @AfterEach
  void stop() {
    loggers.forEach(l -> l.detachAppender(seen));
  }

  @Test
  void sessionsCallsAndTransportFaultsLeaveTheirLines() throws Exception {
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("logs")), null)) {
      McpHttpClient c = gw.client();
      c.initialize(ProtocolRevision.LATEST);
      c.callTool("connection_list", new JsonObject());
      c.callTool("sql_dialect_notes", new JsonObject().put("connectionId", "nope"));
      assertEquals(400, c.post("{not json", Map.of()).status());
      assertEquals(200, c.send("DELETE", Map.of()).status());

      ILoggingEvent open = one("session.open");
      assertEquals(Level.INFO, open.getLevel());
      assertTrue(fields(open).contains("sessionId=" + c.sessionId), fields(open));

      List<ILoggingEvent> ends = all("tool.end");
      assertEquals(2, ends.size());
      assertEquals(Level.INFO, ends.get(0).getLevel(), fields(ends.get(0)));
      ILoggingEvent failed = ends.get(1);
      assertEquals(Level.ERROR, failed.getLevel(), "a failed call ends at error");
      assertTrue(fields(failed).contains("outcome=error") && fields(failed).contains("errorType=invalid_argument")
          && fields(failed).contains("error=unknown connectionId 'nope'"), fields(failed));

      ILoggingEvent transport = one("transport.error");
      assertEquals(Level.WARN, transport.getLevel());
      assertTrue(fields(transport).contains("problem=parse"), fields(transport));

      ILoggingEvent close = one("session.close");
      assertTrue(fields(close).contains("sessionId=" + c.sessionId) && fields(close).contains("reason=client"),
          fields(close));
    }
  }

  private List<ILoggingEvent> all(String message) {
    return seen.list.stream().filter(e -> message.equals(e.getMessage())).toList();
  }

  private ILoggingEvent one(String message) {
    List<ILoggingEvent> events = all(message);
    assertEquals(1, events.size(), message + ": " + seen.list.stream().map(ILoggingEvent::getMessage).toList());
    return events.get(0);
  }

  private static String fields(ILoggingEvent e) {
    return Arrays.stream(e.getArgumentArray()).map(String::valueOf).collect(Collectors.joining(", "));
  }
}
