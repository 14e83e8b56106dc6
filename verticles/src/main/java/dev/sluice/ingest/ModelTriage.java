package dev.sluice.ingest;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.config.IngestConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The optional model-backed triage: the verbatim plan (key, body, scope, references and
 * provenance stay deterministic), with the summary and extra tags asked of an OpenAI-compatible
 * chat completions endpoint. The model may only fill in metadata the author did not write; when
 * it fails or answers nonsense, the deterministic plan is used and the run records a warning.
 * Runs on the ingest worker thread, so the HTTP call blocks that thread only.
 */
final class ModelTriage implements Triage {

  static final String SYSTEM_PROMPT = "You file notes into a team wiki about databases. Reply with one JSON "
      + "object: {\"summary\": one sentence of at most 200 characters saying what the note is about, "
      + "\"tags\": up to 5 lowercase single-word topic tags}. Use only what the note says.";

  private final VerbatimTriage verbatim = new VerbatimTriage();
  private final IngestConfig.Model model;
  private final HttpClient http;

  ModelTriage(IngestConfig.Model model) {
    this.model = model;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(model.timeoutMs())).build();
  }

  @Override
  public PagePlan plan(String content, String connectionId, List<CatalogSnapshot> snapshots, IngestRun run) {
    PagePlan base = verbatim.plan(content, connectionId, snapshots, run);
    List<String> warnings = new ArrayList<>(base.warnings());
    JsonObject answer;
    try {
      answer = ask(base.body());
    } catch (Exception e) {
      warnings.add("model triage failed (" + e.getMessage() + "); the deterministic summary and tags were used");
      return new PagePlan(base.key(), base.frontmatter(), base.body(), base.bodySha256(), base.connections(), warnings);
    }
    Map<String, Object> fm = new LinkedHashMap<>(base.frontmatter());
    Map<String, Object> author = authorWrote(content);
    String summary = answer.getString("summary");
    if (summary != null && !summary.isBlank() && !author.containsKey("summary")) {
      fm.put("summary", summary.strip().length() > VerbatimTriage.MAX_SUMMARY
          ? summary.strip().substring(0, VerbatimTriage.MAX_SUMMARY) : summary.strip());
    }
    Set<String> tags = new LinkedHashSet<>();
    for (Object t : (List<?>) fm.getOrDefault("tags", List.of())) {
      tags.add(String.valueOf(t));
    }
    JsonArray suggested = answer.getJsonArray("tags", new JsonArray());
    for (int i = 0; i < Math.min(5, suggested.size()); i++) {
      String t = String.valueOf(suggested.getValue(i)).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_-]", "");
      if (!t.isEmpty()) {
        tags.add(t);
      }
    }
    fm.put("tags", new ArrayList<>(tags));
    fm.put("triage", "model:" + model.model());
    return new PagePlan(base.key(), fm, base.body(), base.bodySha256(), base.connections(), warnings);
  }

  private JsonObject ask(String body) throws Exception {
    JsonObject request = new JsonObject().put("model", model.model()).put("temperature", 0)
        .put("response_format", new JsonObject().put("type", "json_object"))
        .put("messages", new JsonArray()
            .add(new JsonObject().put("role", "system").put("content", SYSTEM_PROMPT))
            .add(new JsonObject().put("role", "user").put("content", body)));
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(model.url() + "/chat/completions"))
        .timeout(Duration.ofMillis(model.timeoutMs()))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(request.encode(), StandardCharsets.UTF_8));
    if (model.apiKey() != null) {
      b.header("Authorization", "Bearer " + model.apiKey());
    }
    HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != 200) {
      throw new IllegalStateException("HTTP " + res.statusCode() + " from " + model.url());
    }
    String text = new JsonObject(res.body()).getJsonArray("choices").getJsonObject(0).getJsonObject("message")
        .getString("content");
    return new JsonObject(text.strip().replaceAll("^```(json)?|```$", "").strip());
  }

  private static Map<String, Object> authorWrote(String content) {
    Frontmatter f = Frontmatter.split(content);
    Map<String, Object> out = new LinkedHashMap<>();
    if (f.yaml() != null) {
      for (String line : f.yaml().split("\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && !line.startsWith(" ") && !line.startsWith("-")) {
          out.put(line.substring(0, colon).strip(), true);
        }
      }
    }
    return out;
  }
}
