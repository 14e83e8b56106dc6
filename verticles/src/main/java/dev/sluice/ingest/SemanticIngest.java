package dev.sluice.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.state.StateStore;
import java.io.IOException;

/**
 * memory_ingest of a semantic-layer source: content that is a YAML mapping with {@code name},
 * {@code table} and {@code measures} or {@code dimensions} is written to
 * the state store's {@code semantic/<connectionId>} area as {@code <name>.yaml} under the wiki's no-clobber rule (the same
 * text is a no-op, other text under an existing name is a conflict). The gateway's semantic layer
 * picks it up, checked against the catalog, on its next call.
 */
final class SemanticIngest {

  private static final YAMLMapper YAML = new YAMLMapper();

  private SemanticIngest() {}

  /** The source name when the content is a source definition, else null. */
  static String sourceName(String content) {
    String t = content.strip();
    if (t.startsWith("#") || t.startsWith("---\n#")) {
      return null;
    }
    try {
      JsonNode n = YAML.readTree(t);
      if (n != null && n.isObject() && n.hasNonNull("name") && n.hasNonNull("table")
          && (n.has("measures") || n.has("dimensions"))) {
        String name = n.get("name").asText();
        if (!name.matches("[a-z][a-z0-9_]{0,63}")) {
          throw IngestInput.reject("unsafe_key", "semantic source name '" + name + "' must be lower-case letters, "
              + "digits or '_'");
        }
        return name;
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  /** @return "created" or "unchanged" */
  static String write(StateStore store, String connectionId, String name, String content) {
    if (connectionId == null) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "a semantic-layer source belongs to one connection: pass "
          + "connectionId").with("reason", "no_connection");
    }
    String area = "semantic/" + connectionId;
    String text = content.strip() + "\n";
    if (store.create(area, name + ".yaml", text)) {
      return "created";
    }
    if (store.get(area, name + ".yaml").map(e -> e.text().equals(text)).orElse(false)) {
      return "unchanged";
    }
    throw new SqlError(ErrorType.CONFLICT, "semantic source '" + name + "' already exists with another definition; "
        + "nothing was overwritten. Edit " + name + ".yaml in the semantic directory, or use another name")
        .with("key", name);
  }
}
