package dev.sluice.loadtest;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Entry point: a gateway load run (default), a sweep over agent counts, the idle-sessions mode, the
 * direct-driver baseline, or gateway-then-direct with --compare. Writes JSON + HTML to --out and a
 * text summary to stdout; exits 1 when any run had an unexpected error, 2 on bad usage.
 */
public final class LoadTestMain {

  private LoadTestMain() {}

  public static void main(String[] args) throws Exception {
    LoadOptions o;
    try {
      o = LoadOptions.parse(args);
    } catch (IllegalArgumentException e) {
      if (!"help".equals(e.getMessage())) {
        System.err.println("error: " + e.getMessage());
      }
      System.err.println(LoadOptions.usage());
      System.exit("help".equals(e.getMessage()) ? 0 : 2);
      return;
    }
    JsonObject report = execute(o);
    System.exit(report.getLong("unexpectedErrorCount") > 0 ? 1 : 0);
  }

  /** Runs what {@code o} asks for, writes the files and prints the summary; returns the report. */
  public static JsonObject execute(LoadOptions o) throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setBlockedThreadCheckInterval(10_000)
        .setEventLoopPoolSize(o.eventLoops));
    try {
      JsonObject report = runAll(vertx, o);
      write(o, report);
      return report;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  static JsonObject runAll(Vertx vertx, LoadOptions o) throws Exception {
    Map<String, Scenario> catalog = ScenarioCatalog.forDialect(o.dialect, o.connection);
    Mix mix = Mix.parse(o.mix, catalog);
    JsonArray runs = new JsonArray();
    String title;
    if (o.warmupSeconds > 0 && !o.idle && !(o.direct != null && !o.compare)) {
      // JIT and connection warm-up on both sides; its figures are discarded. Two fleets one after
      // the other, so that sessions closing and opening (what the measured run starts with) have
      // run before too: a path first taken at the measured run's start throws compiled code away,
      // and C2 then recompiles the hot methods inside the measured window.
      LoadOptions warm = o.warmup();
      for (int fleet = 0; fleet < 2; fleet++) {
        JsonObject w = GatewayRun.run(vertx, warm, warm.agents, mix);
        System.err.printf("warm-up %d/2: %d calls, %d unexpected errors (discarded)%n", fleet + 1,
            w.getLong("calls"), w.getLong("unexpectedErrorCount"));
      }
    }
    if (o.idle) {
      title = "idle sessions, " + o.agents + " agents";
      runs.add(IdleRun.run(vertx, o));
    } else if (!o.sweep.isEmpty()) {
      title = "sweep " + o.sweep + " agents, mix " + mix;
      for (int level : o.sweep) {
        runs.add(GatewayRun.run(vertx, o, level, mix));
        if (o.direct != null && o.compare) {
          runs.add(DirectRun.run(vertx, o, level, mix.directOnly()));
        }
      }
    } else if (o.direct != null && !o.compare) {
      title = "direct driver baseline, " + o.agents + " agents";
      runs.add(DirectRun.run(vertx, o, o.agents, mix.directOnly()));
    } else {
      title = o.agents + " agents, mix " + mix;
      if (o.compare) {
        // the same scenarios on both sides, so the ratios compare like with like
        Mix comparable = mix.directOnly();
        for (int round = 1; round <= o.rounds; round++) {
          // alternated (G D, D G, ...): a machine that slows down or speeds up over the run weighs
          // on both sides alike
          for (int side = 0; side < 2; side++) {
            boolean gateway = side == (round + 1) % 2;
            JsonObject run = gateway ? GatewayRun.run(vertx, o, o.agents, comparable)
                : DirectRun.run(vertx, o, o.agents, comparable);
            runs.add(run.put("round", round));
          }
        }
      } else {
        runs.add(GatewayRun.run(vertx, o, o.agents, mix));
      }
    }
    long unexpected = 0;
    for (int i = 0; i < runs.size(); i++) {
      unexpected += runs.getJsonObject(i).getLong("unexpectedErrorCount", 0L);
    }
    JsonObject report = new JsonObject()
        .put("title", o.label != null ? o.label + " — " + title : title)
        .put("startedAt", Instant.now().toString())
        .put("target", new JsonObject().put("url", o.url).put("connection", o.connection).put("dialect", o.dialect)
            .put("direct", o.direct == null ? null : o.direct.replaceAll("//[^@/]*@", "//***@")))
        .put("settings", new JsonObject().put("agents", o.agents).put("durationSeconds", o.durationSeconds)
            .put("rampUpSeconds", o.rampUpSeconds).put("thinkTimeMs", o.thinkTimeMs).put("mix", o.mix)
            .put("maxCalls", o.maxCalls).put("warmupSeconds", o.warmupSeconds).put("rounds", o.rounds).put("sse", o.sse).put("sweep", new JsonArray(List.copyOf(o.sweep))))
        .put("runs", runs)
        .put("unexpectedErrorCount", unexpected);
    JsonObject cmp = Comparison.of(runs);
    if (cmp != null) {
      report.put("comparison", cmp);
    }
    return report;
  }

  static void write(LoadOptions o, JsonObject report) throws Exception {
    Path dir = Path.of(o.out);
    Files.createDirectories(dir);
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
    String kind = o.idle ? "idle" : !o.sweep.isEmpty() ? "sweep" : o.compare ? "compare" : o.direct != null
        ? "direct" : "run";
    Path json = dir.resolve("loadtest-" + kind + "-" + stamp + ".json");
    Path html = dir.resolve("loadtest-" + kind + "-" + stamp + ".html");
    Files.writeString(json, report.encodePrettily(), StandardCharsets.UTF_8);
    Files.writeString(html, HtmlReport.render(report), StandardCharsets.UTF_8);
    System.out.print(TextSummary.render(report));
    System.out.println("\nresult: " + json + "\nreport: " + html);
  }
}
