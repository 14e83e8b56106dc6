package dev.sluice.console;

import dev.sluice.audit.AuditQuery;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Set;

/**
 * Recent calls and refusals read back from the audit trail's JSONL files (on a worker thread), newest
 * first, with the console's filters. The trail is the record of what happened on every node that
 * writes to the same directory; nothing is kept in memory for it.
 */
final class History {

  static final int MAX_LIMIT = 500;
  static final int MAX_FILTER_CHARS = 200;
  /** Error types that are a refusal (guard, policy, rate limit, back-pressure), not a failure of the query. */
  static final Set<String> REFUSALS = Set.of("validation_failed", "permission_denied", "rate_limit_exceeded",
      "busy", "confirmation_required");

  /** The query's filters, each optional, each capped in length before any work. */
  record Filter(Instant since, String principal, String tool, String outcome, String connection, String text,
      String kind, int limit) {

    static Filter of(MultiMap q, long slowCallMs) {
      String kind = q.get("kind") == null ? "calls" : q.get("kind");
      if (!Set.of("calls", "slow", "refusals").contains(kind)) {
        throw new IllegalArgumentException("kind must be calls, slow or refusals; got \"" + cap(kind) + "\"");
      }
      int limit;
      try {
        limit = q.get("limit") == null ? 100 : Integer.parseInt(q.get("limit"));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("limit must be a number from 1 to " + MAX_LIMIT);
      }
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new IllegalArgumentException("limit must be a number from 1 to " + MAX_LIMIT);
      }
      Instant since = AuditQuery.parseSince(q.get("since") == null ? "24h" : cap(q.get("since")), Instant.now());
      return new Filter(since, blank(q.get("principal")), blank(q.get("tool")), blank(q.get("outcome")),
          blank(q.get("connection")), blank(q.get("text")), kind, limit);
    }

    private static String blank(String s) {
      return s == null || s.isBlank() ? null : cap(s.trim());
    }

    private static String cap(String s) {
      if (s.length() > MAX_FILTER_CHARS) {
        throw new IllegalArgumentException("a filter is at most " + MAX_FILTER_CHARS + " characters");
      }
      return s;
    }
  }

  private final Vertx vertx;
  private final Path dir;
  private final long slowCallMs;

  History(Vertx vertx, Path dir, long slowCallMs) {
    this.vertx = vertx;
    this.dir = dir;
    this.slowCallMs = slowCallMs;
  }

  long slowCallMs() {
    return slowCallMs;
  }

  /** {@code {records:[...newest first], matched, slowCallMs}}. */
  Future<JsonObject> read(Filter f) {
    return vertx.executeBlocking(() -> {
      ArrayDeque<JsonObject> newest = new ArrayDeque<>(f.limit());
      // principal and outcome filter in AuditQuery; the console's own filters below
      long[] matched = {0};
      new AuditQuery(f.since(), f.principal(), null, f.outcome()).run(dir, r -> {
        if (matches(f, r)) {
          matched[0]++;
          if (newest.size() == f.limit()) {
            newest.removeFirst();
          }
          newest.addLast(r);
        }
      });
      JsonArray out = new JsonArray();
      newest.descendingIterator().forEachRemaining(out::add);
      return new JsonObject().put("records", out).put("matched", matched[0]).put("slowCallMs", slowCallMs);
    }, false);
  }

  private boolean matches(Filter f, JsonObject r) {
    String type = r.getString("type");
    boolean call = "tools/call".equals(type);
    boolean kindOk = switch (f.kind()) {
      case "slow" -> call && r.getValue("durationMs") instanceof Number ms && ms.longValue() >= slowCallMs;
      // Set.of(...).contains(null) throws: a call without an error is no refusal
      case "refusals" -> "http_refused".equals(type)
          || call && r.getString("errorType") != null && REFUSALS.contains(r.getString("errorType"));
      default -> call;
    };
    return kindOk
        && (f.tool() == null || f.tool().equals(r.getString("tool")))
        && (f.connection() == null || f.connection().equals(r.getString("connectionId")))
        && (f.text() == null || r.encode().toLowerCase(Locale.ROOT).contains(f.text().toLowerCase(Locale.ROOT)));
  }
}
