package dev.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.config.AuditConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The audit meters on /metrics say what the audit files hold, after garbage collections too. */
class AuditMetersOverMcpTest {

  private static final String TOKEN = "meters-token";

  @Test
  void writtenRecordsOnMetricsEqualTheRecordsInTheAuditFiles() throws Exception {
    Path dir = Files.createTempDirectory("sluice-audit-meters");
    try (TestGateway gw = TestGateway.onSqliteTable(dir, TOKEN)) {
      McpHttpClient c = gw.session(TOKEN);
      c.callTool("connection_list", new JsonObject());
      for (int i = 0; i < 5; i++) {
        c.callTool("sql_execution", new JsonObject().put("connectionId", "db").put("sql", "SELECT count(*) FROM t"));
      }
      c.callTool("sql_execution", new JsonObject().put("connectionId", "db").put("sql", "DELETE FROM t"));
      c.callTool("sql_execution", new JsonObject().put("connectionId", "nope").put("sql", "SELECT 1"));
      assertEquals(401, gw.client().post(McpHttpClient.request(1, "ping", new JsonObject()), Map.of()).status());
      int expected = 8 + 1; // eight calls, one refused request

      long deadline = System.currentTimeMillis() + 15_000;
      double written;
      long inFiles;
      do {
        // the meter must survive collections (it stayed 0 once its source was collected)
        System.gc();
        Thread.sleep(100);
        String metrics = c.getPath("/metrics", Map.of("Authorization", "Bearer " + TOKEN)).body();
        written = meter(metrics, "sluice_audit_records_written_total");
        assertEquals(0.0, meter(metrics, "sluice_audit_records_dropped_total"), "nothing dropped");
        inFiles = records(dir.resolve("audit"));
      } while ((inFiles < expected || written != inFiles) && System.currentTimeMillis() < deadline);
      assertEquals(expected, inFiles, "records in the audit files");
      assertEquals(inFiles, (long) written, "sluice_audit_records_written_total");
    }
  }

  @Test
  void droppedRecordsAreCounted() {
    GatewayMetrics metrics = new GatewayMetrics();
    AuditTrail stalled = AuditTrail.stalled(new AuditConfig(true, Path.of("unused"), 1024, 20, 2, "drop"));
    metrics.auditCounters(stalled, AuditTrail::written, AuditTrail::dropped);
    for (int i = 0; i < 7; i++) {
      stalled.record(new JsonObject().put("i", i));
    }
    System.gc();
    assertEquals(5.0, meter(metrics.scrape(), "sluice_audit_records_dropped_total"));
    assertEquals(0.0, meter(metrics.scrape(), "sluice_audit_records_written_total"));
    metrics.close();
  }

  private static double meter(String scrape, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " ([0-9.eE+-]+)$").matcher(scrape);
    if (!m.find()) {
      throw new AssertionError(name + " is not on /metrics:\n" + scrape);
    }
    return Double.parseDouble(m.group(1));
  }

  private static long records(Path auditDir) throws Exception {
    if (!Files.isDirectory(auditDir)) {
      return 0;
    }
    long n = 0;
    try (Stream<Path> files = Files.list(auditDir)) {
      for (Path f : files.toList()) {
        // a line is a record once its newline is written: the writer appends whole batches
        n += Files.readAllLines(f).stream().filter(l -> !l.isBlank()).count();
      }
    }
    return n;
  }
}
