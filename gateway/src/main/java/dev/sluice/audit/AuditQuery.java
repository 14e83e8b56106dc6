package dev.sluice.audit;

import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** Reads the audit JSONL files back, oldest first, with simple filters (sluice audit query). */
public final class AuditQuery {

  private final Instant since;
  private final String principal;
  private final String tool;
  private final String outcome;

  public AuditQuery(Instant since, String principal, String tool, String outcome) {
    this.since = since;
    this.principal = principal;
    this.tool = tool;
    this.outcome = outcome;
  }

  /**
   * {@code 2026-11-23T10:00:00Z}, a date ({@code 2026-11-23}, from its start in UTC) or a duration
   * back from now ({@code 90m}, {@code 24h}, {@code 7d}).
   */
  public static Instant parseSince(String text, Instant now) {
    String t = text.trim();
    try {
      if (t.matches("\\d+[smhd]")) {
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        Duration d = switch (t.charAt(t.length() - 1)) {
          case 's' -> Duration.ofSeconds(n);
          case 'm' -> Duration.ofMinutes(n);
          case 'h' -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
        return now.minus(d);
      }
      if (t.length() == 10) {
        return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
      }
      return Instant.parse(t);
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new IllegalArgumentException("--since takes an ISO instant (2026-11-23T10:00:00Z), a date "
          + "(2026-11-23) or a duration back from now (90m, 24h, 7d); got \"" + text + "\"");
    }
  }

  /** @return records matched */
  public long run(Path dir, Consumer<JsonObject> out) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().matches("audit-\\d{4}-\\d{2}-\\d{2}(\\.\\d+)?\\.jsonl"))
          .sorted((a, b) -> order(a).compareTo(order(b))).toList();
    }
    long matched = 0;
    for (Path f : files) {
      if (since != null && day(f).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().isBefore(since)) {
        continue;
      }
      try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.isBlank()) {
            continue;
          }
          JsonObject rec = new JsonObject(line);
          if (matches(rec)) {
            out.accept(rec);
            matched++;
          }
        }
      }
    }
    return matched;
  }

  private boolean matches(JsonObject r) {
    return (since == null || !Instant.parse(r.getString("time")).isBefore(since))
        && (principal == null || principal.equals(r.getString("principal")))
        && (tool == null || tool.equals(r.getString("tool")))
        && (outcome == null || outcome.equals(r.getString("outcome")));
  }

  private static LocalDate day(Path f) {
    return LocalDate.parse(f.getFileName().toString().substring(6, 16));
  }

  /** Day, then rotation index, so records come out in the order they were written. */
  private static String order(Path f) {
    String n = f.getFileName().toString();
    String idx = n.substring(16, n.length() - 6);
    int i = idx.isEmpty() ? 0 : Integer.parseInt(idx.substring(1));
    return n.substring(6, 16) + String.format("%06d", i);
  }
}
