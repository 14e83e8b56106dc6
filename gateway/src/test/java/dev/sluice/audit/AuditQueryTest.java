package dev.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditQueryTest {

  @TempDir
  Path dir;

  private static String rec(String time, String tool, String outcome) {
    return new JsonObject().put("type", "tools/call").put("time", time).put("principal", "default")
        .put("tool", tool).put("outcome", outcome).encode();
  }

  @Test
  void filtersBySinceToolAndOutcomeInWrittenOrderAcrossRotations() throws Exception {
    Files.writeString(dir.resolve("audit-2026-11-21.jsonl"), rec("2026-11-21T10:00:00Z", "sql_execution", "ok") + "\n");
    Files.writeString(dir.resolve("audit-2026-11-22.jsonl"), rec("2026-11-22T09:00:00Z", "sql_execution", "error")
        + "\n" + rec("2026-11-22T10:00:00Z", "connection_list", "ok") + "\n");
    Files.writeString(dir.resolve("audit-2026-11-22.1.jsonl"), rec("2026-11-22T11:00:00Z", "sql_execution", "ok") + "\n");
    Files.writeString(dir.resolve("audit-2026-11-22.10.jsonl"), rec("2026-11-22T12:00:00Z", "sql_execution", "ok") + "\n");
    Files.writeString(dir.resolve("notes.txt"), "not an audit file\n");
    List<String> times = new ArrayList<>();
    long n = new AuditQuery(Instant.parse("2026-11-22T00:00:00Z"), "default", "sql_execution", null)
        .run(dir, r -> times.add(r.getString("time")));
    assertEquals(3, n);
    assertEquals(List.of("2026-11-22T09:00:00Z", "2026-11-22T11:00:00Z", "2026-11-22T12:00:00Z"), times);
    assertEquals(1, new AuditQuery(null, null, null, "error").run(dir, r -> { }));
    assertEquals(0, new AuditQuery(null, "someone-else", null, null).run(dir, r -> { }));
  }

  @Test
  void sinceAcceptsInstantsDatesAndDurations() {
    Instant now = Instant.parse("2026-11-23T12:00:00Z");
    assertEquals(Instant.parse("2026-11-23T10:30:00Z"), AuditQuery.parseSince("90m", now));
    assertEquals(Instant.parse("2026-11-16T12:00:00Z"), AuditQuery.parseSince("7d", now));
    assertEquals(Instant.parse("2026-11-20T00:00:00Z"), AuditQuery.parseSince("2026-11-20", now));
    assertEquals(Instant.parse("2026-11-20T08:00:00Z"), AuditQuery.parseSince("2026-11-20T08:00:00Z", now));
    assertThrows(IllegalArgumentException.class, () -> AuditQuery.parseSince("yesterday", now));
  }
}
