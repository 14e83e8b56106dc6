package dev.sluice.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Deterministic triage without a model: the body is stored verbatim; key from the leading heading
 * (or first sentence), title from the heading, summary from the first sentence of text, tags from
 * {@code #hashtags}, table and column references found by name in the catalog snapshots, scope from
 * the run's connection, provenance (source, run id, time, content hash) in the frontmatter.
 * Frontmatter the author wrote passes through; the fields above fill in only what it lacks.
 */
final class VerbatimTriage implements Triage {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Pattern HASHTAG = Pattern.compile("(?<![\\w#/])#([A-Za-z][\\w-]{1,39})\\b");
  static final int MAX_SUMMARY = 200;

  @Override
  public PagePlan plan(String content, String connectionId, List<CatalogSnapshot> snapshots, IngestRun run) {
    Frontmatter split = Frontmatter.split(content);
    String body = split.body().strip() + "\n";
    String key = PageKeys.of(content);
    Map<String, Object> author = authorFields(split.yaml());
    List<String> warnings = new ArrayList<>();

    String heading = PageKeys.heading(body);
    String text = heading == null ? body : body.substring(body.indexOf(heading) + heading.length());
    String first = PageKeys.firstSentence(text.replaceAll("(?m)^#+\\s.*$", " "));
    if (first.length() > MAX_SUMMARY) {
      first = first.substring(0, MAX_SUMMARY);
    }

    Map<String, Object> fm = new LinkedHashMap<>();
    fm.put("title", author.getOrDefault("title", heading != null ? heading : PageKeys.firstSentence(body)));
    fm.put("summary", author.getOrDefault("summary", first.isEmpty() ? null : first));
    Set<String> tags = new LinkedHashSet<>(strings(author.get("tags")));
    Matcher m = HASHTAG.matcher(body);
    while (m.find()) {
      tags.add(m.group(1).toLowerCase(Locale.ROOT));
    }
    fm.put("tags", new ArrayList<>(tags));
    List<String> connections = connectionId != null ? List.of(connectionId) : strings(author.get("connections"));
    fm.put("connections", connections);
    Set<String> tables = new LinkedHashSet<>(strings(author.get("tables")));
    tables.addAll(references(body, snapshots));
    if (snapshots.isEmpty() && connectionId != null) {
      warnings.add("no catalog snapshot of '" + connectionId + "' yet: table references were not detected");
    }
    fm.put("tables", new ArrayList<>(tables));
    if (author.containsKey("sl_refs")) {
      fm.put("sl_refs", author.get("sl_refs"));
    }
    author.forEach(fm::putIfAbsent);
    String sha = sha256(body);
    fm.put("source", run.source());
    fm.put("run_id", run.runId());
    fm.put("ingested_at", run.createdAt());
    fm.put("content_sha256", sha);
    return new PagePlan(key, fm, body, sha, connections, warnings);
  }

  /** Table names (and table.column pairs) of the snapshots mentioned as whole words in the body. */
  static List<String> references(String body, List<CatalogSnapshot> snapshots) {
    String lower = body.toLowerCase(Locale.ROOT);
    Set<String> found = new LinkedHashSet<>();
    for (CatalogSnapshot s : snapshots) {
      for (CatalogTable t : s.tables()) {
        String name = t.ref().name().toLowerCase(Locale.ROOT);
        if (!mentions(lower, name)) {
          continue;
        }
        found.add(t.ref().display());
        for (CatalogColumn c : t.columns()) {
          if (mentions(lower, name + "." + c.name().toLowerCase(Locale.ROOT))) {
            found.add(t.ref().display() + "." + c.name());
          }
        }
      }
    }
    return new ArrayList<>(found);
  }

  private static boolean mentions(String text, String word) {
    int from = 0;
    while (true) {
      int i = text.indexOf(word, from);
      if (i < 0) {
        return false;
      }
      boolean before = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) && text.charAt(i - 1) != '_';
      int end = i + word.length();
      boolean after = end == text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_';
      if (before && after) {
        return true;
      }
      from = i + 1;
    }
  }

  private static Map<String, Object> authorFields(String yaml) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (yaml == null || yaml.isBlank()) {
      return out;
    }
    try {
      JsonNode n = YAML.readTree(yaml);
      if (n != null && n.isObject()) {
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          out.put(e.getKey(), YAML.convertValue(e.getValue(), Object.class));
        }
      }
    } catch (IOException e) {
      throw IngestInput.reject("bad_frontmatter", "the leading --- block is not valid YAML: "
          + e.getMessage().split("\n")[0]);
    }
    return out;
  }

  private static List<String> strings(Object v) {
    List<String> out = new ArrayList<>();
    if (v instanceof List<?> l) {
      l.forEach(x -> out.add(String.valueOf(x)));
    } else if (v != null) {
      for (String s : String.valueOf(v).split(",")) {
        if (!s.isBlank()) {
          out.add(s.strip());
        }
      }
    }
    return out;
  }

  static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
