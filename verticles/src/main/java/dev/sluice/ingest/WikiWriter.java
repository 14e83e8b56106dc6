package dev.sluice.ingest;

import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.state.StateStore;
import dev.sluice.wiki.WikiStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes planned pages into the wiki without ever clobbering one: a page is only created when its
 * key is free (atomically, so two nodes racing on one key cannot both win). An existing page with
 * the same body and scope makes the run a no-op; a different body or scope is a {@code conflict}.
 * Blocking.
 */
final class WikiWriter {

  private static final YAMLMapper YAML = YAMLMapper.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .build();
  private static final Pattern SHA = Pattern.compile("(?m)^content_sha256:\\s*\"?([0-9a-f]{64})\"?\\s*$");
  private static final Pattern CONNECTIONS = Pattern.compile("(?ms)^connections:(.*?)(?=^\\w|\\z)");

  private final StateStore store;

  WikiWriter(StateStore store) {
    this.store = store;
  }

  void removeInterruptedWrites() {
    store.removeInterruptedWrites(WikiStore.AREA);
  }

  /** @return "created" or "unchanged"; a conflicting page fails with {@link ErrorType#CONFLICT} */
  String write(PagePlan plan) {
    String key = plan.key() + ".md";
    if (store.create(WikiStore.AREA, key, render(plan))) {
      return "created";
    }
    // it existed, or another writer created it first: either way, compare against what is there
    String existing = store.get(WikiStore.AREA, key).map(StateStore.Entry::text)
        .orElseThrow(() -> new SqlError(ErrorType.CONFLICT, "wiki page '" + plan.key() + "' was being replaced "
            + "while this run wrote it; ingest again").with("key", plan.key()));
    return compare(existing, plan);
  }

  private String compare(String text, PagePlan plan) {
    Frontmatter f = Frontmatter.split(text);
    Matcher sha = SHA.matcher(f.yaml() == null ? "" : f.yaml());
    String existingSha = sha.find() ? sha.group(1) : VerbatimTriage.sha256(f.body().strip() + "\n");
    List<String> scope = scope(f.yaml());
    boolean sameScope = new HashSet<>(scope).equals(new HashSet<>(plan.connections()));
    if (existingSha.equals(plan.bodySha256()) && sameScope) {
      return "unchanged";
    }
    String why = existingSha.equals(plan.bodySha256())
        ? "is scoped to " + (scope.isEmpty() ? "every connection" : scope) + ", not "
            + (plan.connections().isEmpty() ? "every connection" : plan.connections())
        : "has different content";
    throw new SqlError(ErrorType.CONFLICT, "wiki page '" + plan.key() + "' already exists and " + why
        + "; nothing was overwritten. Ingest under another heading (e.g. '" + plan.key() + " (update)'), "
        + "or edit the page " + plan.key() + " in the state store")
        .with("key", plan.key());
  }

  private static List<String> scope(String yaml) {
    if (yaml == null) {
      return List.of();
    }
    Matcher m = CONNECTIONS.matcher(yaml + "\n");
    if (!m.find()) {
      return List.of();
    }
    try {
      Object v = YAML.readValue("connections:" + m.group(1), java.util.Map.class).get("connections");
      if (v instanceof List<?> l) {
        return l.stream().map(String::valueOf).toList();
      }
      return v == null ? List.of() : List.of(String.valueOf(v));
    } catch (IOException e) {
      return List.of();
    }
  }

  static String render(PagePlan plan) {
    try {
      return "---\n" + YAML.writeValueAsString(plan.frontmatter()) + "---\n" + plan.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
