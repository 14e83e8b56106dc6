package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlRequest;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * sql_compare: is a rewrite equivalent, and is it faster? Both statements run under the read-only
 * guard with the whole result hashed while it streams (row count plus an order-insensitive
 * checksum over normalized values, on every engine); timing follows a named protocol, never one
 * run. A difference is shown with the rows behind it.
 */
public final class SqlCompareTool implements Tool {

  static final int SAMPLE_DIFFS = 5;

  private static final ToolSpec SPEC = ToolSpec.resource("sql_compare");

  private final ConnectionDirectory directory;

  public SqlCompareTool(ConnectionDirectory directory) {
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  /** One timed execution. */
  private record Run(String side, JsonObject result, Long ms, boolean timedOut) {}

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    String baseline = args.getString("baselineSql");
    String candidate = args.getString("candidateSql");
    String protocol = args.getString("protocol", "3-run");
    long timeoutMs = Math.min(args.getLong("timeoutMs", c.queryTimeoutMs()), c.queryTimeoutMs());
    int digits = args.getInteger("floatDigits", 12);
    List<String> plan = plan(protocol);
    // each statement is analysed, guarded and checked against the policy once, then runs many times
    SqlRequest base = SqlRequest.query(c.id(), baseline, null, 1).withChecksum(digits).withTimeout(timeoutMs);
    SqlRequest cand = SqlRequest.query(c.id(), candidate, null, 1).withChecksum(digits).withTimeout(timeoutMs);
    Map<String, SqlRequest> admitted = new HashMap<>();
    Future<Void> checked = directory.gate().admit(c, base, List.of(), ctx)
        .recover(err -> Future.failedFuture(SqlError.from(err).with("side", "baseline")))
        .compose(a -> {
          admitted.put("baseline", base.withAnalysis(a));
          return directory.gate().admit(c, cand, List.of(), ctx)
              .recover(err -> Future.failedFuture(SqlError.from(err).with("side", "candidate")));
        })
        .map(a -> {
          admitted.put("candidate", cand.withAnalysis(a));
          ctx.statementFingerprint(null);
          return null;
        });
    List<Run> runs = new ArrayList<>();
    Future<Void> chain = checked;
    for (int i = 0; i < plan.size(); i++) {
      int index = i;
      String side = plan.get(i);
      chain = chain.compose(v -> {
        if (ctx.cancelled()) {
          return Future.failedFuture(new SqlError(ErrorType.CANCELLED, "comparison cancelled"));
        }
        boolean sideTimedOut = runs.stream().anyMatch(r -> r.side().equals(side) && r.timedOut());
        if (sideTimedOut) {
          // a statement that hit the deadline once will again: do not spend the deadline twice
          runs.add(new Run(side, null, null, true));
          return Future.succeededFuture();
        }
        return directory.gate().execute(c, admitted.get(side), ctx, p -> { }).map(r -> {
          runs.add(new Run(side, r, r.getLong("executionTimeMs"), false));
          ctx.progress(index + 1, (double) plan.size(), side + " run " + (index + 1) + "/" + plan.size() + ": "
              + r.getLong("executionTimeMs") + " ms");
          return (Void) null;
        }).recover(err -> {
          SqlError e = SqlError.from(err);
          if (e.type() != ErrorType.TIMEOUT) {
            return Future.failedFuture(e.with("side", side));
          }
          runs.add(new Run(side, null, null, true));
          ctx.progress(index + 1, (double) plan.size(), side + " run " + (index + 1) + "/" + plan.size()
              + ": timed out after " + timeoutMs + " ms");
          return Future.succeededFuture();
        });
      });
    }
    return chain.map(v -> ToolResult.of(report(protocol, runs, timeoutMs), text(report(protocol, runs, timeoutMs))));
  }

  static List<String> plan(String protocol) {
    return switch (protocol) {
      case "5-trimmed" -> List.of("baseline", "baseline", "baseline", "baseline", "baseline",
          "candidate", "candidate", "candidate", "candidate", "candidate");
      case "interleaved" -> List.of("baseline", "candidate", "baseline", "candidate", "baseline", "candidate");
      default -> List.of("baseline", "baseline", "baseline", "candidate", "candidate", "candidate");
    };
  }

  private static JsonObject report(String protocol, List<Run> runs, long timeoutMs) {
    List<Run> b = runs.stream().filter(r -> r.side().equals("baseline")).toList();
    List<Run> c = runs.stream().filter(r -> r.side().equals("candidate")).toList();
    JsonObject out = new JsonObject().put("protocol", protocol);
    JsonObject br = b.stream().filter(r -> r.result() != null).map(Run::result).findFirst().orElse(null);
    JsonObject cr = c.stream().filter(r -> r.result() != null).map(Run::result).findFirst().orElse(null);
    if (br == null || cr == null) {
      out.put("equal", (Object) null).put("equivalence", "unknown: " + (br == null && cr == null ? "both timed out"
          : (br == null ? "baseline" : "candidate") + " timed out"));
    } else {
      boolean equal = br.getLong("rowCount").equals(cr.getLong("rowCount"))
          && br.getInteger("columnCount").equals(cr.getInteger("columnCount"))
          && br.getString("checksum").equals(cr.getString("checksum"));
      out.put("equal", equal)
          .put("baseline", new JsonObject().put("rowCount", br.getLong("rowCount")).put("checksum", br.getString("checksum")))
          .put("candidate", new JsonObject().put("rowCount", cr.getLong("rowCount")).put("checksum", cr.getString("checksum")));
      if (equal && br.getLong("rowCount") == 0) {
        out.put("zero_row_unverified", true);
      }
      if (!equal) {
        out.put("differences", differences(br, cr));
      }
    }
    JsonArray times = new JsonArray();
    runs.forEach(r -> times.add(new JsonObject().put("side", r.side()).put("ms", r.ms()).put("timedOut", r.timedOut())));
    out.put("runs", times);
    Double bm = mean(protocol, b);
    Double cm = mean(protocol, c);
    out.put("baselineMs", bm).put("candidateMs", cm);
    boolean bTimeout = bm == null;
    boolean cTimeout = cm == null;
    if (bTimeout && cTimeout) {
      out.put("speedup", (Object) null).put("speedup_type", "both_timeout").put("class", (Object) null);
    } else if (bTimeout) {
      double s = timeoutMs / Math.max(cm, 0.001);
      out.put("speedup", round(s)).put("speedup_type", "vs_timeout_ceiling").put("class", speedClass(s))
          .put("note", "the baseline hit the " + timeoutMs + " ms deadline: the speedup is a lower bound");
    } else if (cTimeout) {
      double s = Math.max(bm, 0.001) / timeoutMs;
      out.put("speedup", round(s)).put("speedup_type", "vs_timeout_ceiling").put("class", "REGRESSION")
          .put("note", "the candidate hit the " + timeoutMs + " ms deadline");
    } else {
      double s = Math.max(bm, 0.001) / Math.max(cm, 0.001);
      out.put("speedup", round(s)).put("speedup_type", "measured").put("class", speedClass(s));
    }
    return out;
  }

  /** Rows whose counts differ between the two samples, a few from each side. */
  private static JsonObject differences(JsonObject b, JsonObject c) {
    Map<String, JsonObject> bs = index(b.getJsonArray("sample"));
    Map<String, JsonObject> cs = index(c.getJsonArray("sample"));
    JsonArray onlyB = new JsonArray();
    JsonArray onlyC = new JsonArray();
    bs.forEach((h, e) -> {
      long other = cs.containsKey(h) ? cs.get(h).getLong("count") : 0;
      if (e.getLong("count") > other && onlyB.size() < SAMPLE_DIFFS) {
        onlyB.add(new JsonObject().put("row", e.getJsonArray("row")).put("extraCopies", e.getLong("count") - other));
      }
    });
    cs.forEach((h, e) -> {
      long other = bs.containsKey(h) ? bs.get(h).getLong("count") : 0;
      if (e.getLong("count") > other && onlyC.size() < SAMPLE_DIFFS) {
        onlyC.add(new JsonObject().put("row", e.getJsonArray("row")).put("extraCopies", e.getLong("count") - other));
      }
    });
    JsonObject d = new JsonObject().put("onlyInBaseline", onlyB).put("onlyInCandidate", onlyC);
    if (!b.getBoolean("sampleComplete", true) || !c.getBoolean("sampleComplete", true)) {
      d.put("note", "rows beyond the first " + dev.sluice.sql.RowChecksum.SAMPLED + " distinct ones are not sampled");
    }
    if (!b.getInteger("columnCount").equals(c.getInteger("columnCount"))) {
      d.put("columns", "baseline has " + b.getInteger("columnCount") + " columns, candidate "
          + c.getInteger("columnCount"));
    }
    return d;
  }

  private static Map<String, JsonObject> index(JsonArray sample) {
    Map<String, JsonObject> m = new HashMap<>();
    sample.forEach(o -> m.put(((JsonObject) o).getString("hash"), (JsonObject) o));
    return m;
  }

  /** The protocol's timing: 3-run and interleaved drop the first run; 5-trimmed drops min and max. */
  static Double mean(String protocol, List<Run> runs) {
    if (runs.stream().anyMatch(Run::timedOut)) {
      return null;
    }
    List<Long> ms = new ArrayList<>(runs.stream().map(Run::ms).toList());
    if (protocol.equals("5-trimmed")) {
      ms.sort(Long::compare);
      ms = ms.subList(1, ms.size() - 1);
    } else {
      ms = ms.subList(1, ms.size());
    }
    return ms.stream().mapToLong(Long::longValue).average().orElse(0);
  }

  static String speedClass(double s) {
    return s >= 1.10 ? "WIN" : s >= 1.05 ? "IMPROVED" : s >= 0.95 ? "NEUTRAL" : "REGRESSION";
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static String text(JsonObject r) {
    StringBuilder t = new StringBuilder();
    Object eq = r.getValue("equal");
    t.append(eq == null ? "equivalence unknown (" + r.getString("equivalence") + ")"
        : (Boolean) eq ? "EQUAL results" + (r.getBoolean("zero_row_unverified", false) ? " (both empty: unverified)" : "")
        : "DIFFERENT results");
    t.append("; ").append(r.getString("speedup_type")).append(" speedup ").append(r.getValue("speedup"))
        .append(" (").append(r.getValue("class")).append("), baseline ").append(r.getValue("baselineMs"))
        .append(" ms, candidate ").append(r.getValue("candidateMs")).append(" ms, protocol ")
        .append(r.getString("protocol"));
    if (r.getJsonObject("differences") != null) {
      t.append("\n").append(r.getJsonObject("differences").encode());
    }
    return t.toString();
  }
}
