package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.sql.NameSuggester;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A YAML mapping with its dotted key path: typed reads that fail with a {@link ConfigException}
 * naming the key, and one unknown-key check per section against the keys that section declares.
 */
final class ConfigNode {

  private final String path;
  private final JsonNode node;
  private final Map<String, String> env;

  ConfigNode(String path, JsonNode node, Map<String, String> env) {
    this.path = path;
    this.node = node;
    this.env = env;
  }

  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  boolean has(String name) {
    return node != null && node.has(name) && !node.get(name).isNull();
  }

  /** Refuses any key not in {@code known}, suggesting the closest known one. */
  void onlyKeys(Set<String> known) {
    if (node == null) {
      return;
    }
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!known.contains(n)) {
        List<String> close = NameSuggester.similar(n, known);
        throw new ConfigException(key(n), "unknown key" + (close.isEmpty() ? ""
            : "; did you mean " + close.get(0) + "?") + " (known keys here: " + String.join(", ", known) + ")");
      }
    }
  }

  /** The keys of this mapping, in file order (empty when absent). */
  List<String> fieldNames() {
    List<String> out = new ArrayList<>();
    if (node != null && node.isObject()) {
      node.fieldNames().forEachRemaining(out::add);
    }
    return out;
  }

  ConfigNode section(String name) {
    JsonNode child = node == null ? null : node.get(name);
    if (child != null && !child.isNull() && !child.isObject()) {
      throw new ConfigException(key(name), "must be a mapping of keys, got " + describe(child));
    }
    return new ConfigNode(key(name), child == null || child.isNull() ? null : child, env);
  }

  List<ConfigNode> list(String name) {
    JsonNode child = node == null ? null : node.get(name);
    List<ConfigNode> out = new ArrayList<>();
    if (child == null || child.isNull()) {
      return out;
    }
    if (!child.isArray()) {
      throw new ConfigException(key(name), "must be a list, got " + describe(child));
    }
    for (int i = 0; i < child.size(); i++) {
      JsonNode item = child.get(i);
      String k = key(name) + "[" + i + "]";
      if (!item.isObject()) {
        throw new ConfigException(k, "must be a mapping of keys, got " + describe(item));
      }
      out.add(new ConfigNode(k, item, env));
    }
    return out;
  }

  String string(String name, String def) {
    if (!has(name)) {
      return def;
    }
    JsonNode v = node.get(name);
    if (!v.isValueNode() || v.isBinary()) {
      throw new ConfigException(key(name), "must be a string, got " + describe(v));
    }
    return EnvReferences.expand(key(name), v.asText(), env);
  }

  String requiredString(String name) {
    String v = string(name, null);
    if (v == null || v.isBlank()) {
      throw new ConfigException(key(name), "is required");
    }
    return v;
  }

  long number(String name, long def, long min, long max) {
    if (!has(name)) {
      return def;
    }
    JsonNode v = node.get(name);
    long value;
    if (v.isIntegralNumber()) {
      value = v.asLong();
    } else if (v.isTextual()) {
      value = parseInteger(key(name), EnvReferences.expand(key(name), v.asText(), env));
    } else {
      throw new ConfigException(key(name), "must be an integer, got " + describe(v));
    }
    return checkRange(key(name), value, min, max);
  }

  boolean bool(String name, boolean def) {
    if (!has(name)) {
      return def;
    }
    JsonNode v = node.get(name);
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    if (v.isTextual()) {
      return parseBoolean(key(name), EnvReferences.expand(key(name), v.asText(), env));
    }
    throw new ConfigException(key(name), "must be true or false, got " + describe(v));
  }

  static boolean parseBoolean(String key, String text) {
    return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(key, "must be true or false, got \"" + text + "\"");
    };
  }

  static long parseInteger(String key, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key, "must be an integer, got \"" + text + "\"");
    }
  }

  static long checkRange(String key, long value, long min, long max) {
    if (value < min || value > max) {
      String rule = min == 1 && (value < 1 || max == Long.MAX_VALUE) ? "must be a positive integer"
          + (max == Long.MAX_VALUE ? "" : " (at most " + max + ")") : "must be between " + min + " and " + max;
      throw new ConfigException(key, rule + ", got " + value);
    }
    return value;
  }

  List<String> strings(String name) {
    List<String> out = new ArrayList<>();
    if (!has(name)) {
      return out;
    }
    JsonNode v = node.get(name);
    if (!v.isArray()) {
      throw new ConfigException(key(name), "must be a list of strings, got " + describe(v));
    }
    for (int i = 0; i < v.size(); i++) {
      JsonNode item = v.get(i);
      if (!item.isTextual()) {
        throw new ConfigException(key(name) + "[" + i + "]", "must be a string, got " + describe(item));
      }
      out.add(EnvReferences.expand(key(name) + "[" + i + "]", item.asText(), env));
    }
    return out;
  }

  private static String describe(JsonNode v) {
    if (v.isTextual()) {
      return "\"" + v.asText() + "\"";
    }
    if (v.isObject()) {
      return "a mapping";
    }
    if (v.isArray()) {
      return "a list";
    }
    return v.toString();
  }
}
