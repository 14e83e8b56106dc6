package dev.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.AuditConfig;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditTrailTest {

  @TempDir
  Path dir;

  private static List<String> lines(Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        out.addAll(Files.readAllLines(f));
      }
    }
    return out;
  }

  @Test
  void concurrentRecordsAreAllWrittenOnceAcrossSizeRotations() throws Exception {
    AuditTrail trail = AuditTrail.open(new AuditConfig(true, dir, 64 * 1024, 20, 100_000, "drop"));
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      threads.add(new Thread(() -> {
        for (int i = 0; i < 2_500; i++) {
          trail.record(new JsonObject().put("thread", thread).put("i", i).put("pad", "x".repeat(40)));
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    trail.close();
    List<String> lines = lines(dir);
    assertEquals(20_000, lines.size());
    Set<String> unique = new HashSet<>();
    lines.forEach(l -> unique.add(new JsonObject(l).getInteger("thread") + ":" + new JsonObject(l).getInteger("i")));
    assertEquals(20_000, unique.size(), "no duplicates");
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> all = files.toList();
      assertTrue(all.size() > 1, "64 KiB files must have rotated: " + all);
      for (Path f : all) {
        assertTrue(Files.size(f) <= 64 * 1024, f + " is " + Files.size(f) + " bytes");
        assertTrue(f.getFileName().toString().matches("audit-\\d{4}-\\d{2}-\\d{2}(\\.\\d+)?\\.jsonl"), f.toString());
      }
    }
    assertEquals(20_000, trail.written());
    assertEquals(0, trail.dropped());
  }

  @Test
  void aDisabledTrailWritesNothingAndBlockPolicyReportsSaturation() throws Exception {
    AuditTrail off = AuditTrail.open(new AuditConfig(false, dir.resolve("off"), 1024, 20, 10, "drop"));
    off.record(new JsonObject().put("x", 1));
    off.close();
    assertTrue(Files.notExists(dir.resolve("off")));
    assertTrue(!off.saturated());
  }

  @Test
  void aFullBufferDropsAndCountsOrBlocksNewCalls() {
    AuditTrail drop = AuditTrail.stalled(new AuditConfig(true, dir, 1024, 20, 3, "drop"));
    for (int i = 0; i < 5; i++) {
      drop.record(new JsonObject().put("i", i));
    }
    assertEquals(2, drop.dropped());
    assertTrue(!drop.saturated(), "drop never refuses calls");
    AuditTrail block = AuditTrail.stalled(new AuditConfig(true, dir, 1024, 20, 2, "block"));
    block.record(new JsonObject());
    assertTrue(!block.saturated());
    block.record(new JsonObject());
    assertTrue(block.saturated(), "block: the dispatcher refuses new calls while the buffer is full");
  }
}
