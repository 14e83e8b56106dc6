package dev.sluice.mcp.tool;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tools a gateway serves, in registration order, each with a compiled argument validator.
 * Thread-safe for reads; registration happens at start (and on reload, which notifies listeners so
 * sessions can send notifications/tools/list_changed).
 */
public final class ToolRegistry {

  /** Tools per tools/list page; small enough that pagination is exercised by real clients. */
  public static final int DEFAULT_PAGE_SIZE = 50;

  /**
   * A registered tool: its validator, and its tools/list entries built once: with and without the
   * outputSchema (2025-03-26 has no structured output: a client told of an outputSchema there
   * would wait for structuredContent that never comes), and with and without the MCP Apps viewer
   * ({@code _meta.ui}, only for clients that declared the extension).
   */
  private record Entry(Tool tool, Validator validator, FlatArgsCheck quickYes, JsonObject listed,
      JsonObject listedWithoutOutput, JsonObject listedForApps, JsonObject listedForAppsWithoutOutput) {

    static Entry of(Tool tool) {
      JsonObject schema = tool.spec().inputSchema();
      JsonObject listed = tool.spec().toJson();
      JsonObject forApps = tool.spec().toJson(true);
      return new Entry(tool, compile(schema), FlatArgsCheck.of(schema), listed, withoutOutput(listed), forApps,
          withoutOutput(forApps));
    }

    private static JsonObject withoutOutput(JsonObject listed) {
      JsonObject without = listed.copy();
      without.remove("outputSchema");
      return without;
    }

    JsonObject listed(boolean outputSchemas, boolean apps) {
      if (apps) {
        return outputSchemas ? listedForApps : listedForAppsWithoutOutput;
      }
      return outputSchemas ? listed : listedWithoutOutput;
    }
  }

  private volatile Map<String, Entry> tools = new LinkedHashMap<>();
  private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();
  private final int pageSize;

  public ToolRegistry() {
    this(DEFAULT_PAGE_SIZE);
  }

  public ToolRegistry(int pageSize) {
    this.pageSize = pageSize;
  }

  public ToolRegistry register(Tool tool) {
    replace(List.of(), List.of(tool));
    return this;
  }

  public void unregister(String name) {
    replace(List.of(name), List.of());
  }

  /**
   * Removes and adds tools in one step, with one notification: a client told list_changed must
   * never list a state between the two (the old tools gone, the new ones not there yet).
   */
  public synchronized void replace(Collection<String> removed, Collection<Tool> added) {
    Map<String, Entry> next = new LinkedHashMap<>(tools);
    boolean changed = false;
    for (String name : removed) {
      changed |= next.remove(name) != null;
    }
    for (Tool tool : added) {
      if (next.put(tool.spec().name(), Entry.of(tool)) != null) {
        throw new IllegalStateException("tool registered twice: " + tool.spec().name());
      }
      changed = true;
    }
    if (changed) {
      tools = next;
      changeListeners.forEach(Runnable::run);
    }
  }

  public void onChange(Runnable listener) {
    changeListeners.add(listener);
  }

  public Tool get(String name) {
    Entry e = tools.get(name);
    return e == null ? null : e.tool;
  }

  public List<String> names() {
    return new ArrayList<>(tools.keySet());
  }

  /**
   * Validates arguments; returns null when valid, else one message per violation naming the
   * argument path, e.g. {@code /maxRows: 0 is less than the minimum of 1}.
   */
  public List<String> validate(String toolName, JsonObject args) {
    Entry e = tools.get(toolName);
    if (e.quickYes != null && e.quickYes.passes(args)) {
      return null;
    }
    OutputUnit out = e.validator.validate(args);
    if (Boolean.TRUE.equals(out.getValid())) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    collect(out, problems);
    if (problems.isEmpty()) {
      problems.add("arguments do not match the tool's inputSchema");
    }
    return problems;
  }

  /**
   * Validates {@code value} against any JSON Schema 2020-12 (e.g. an approved query's parameters);
   * compiles it for this one check.
   */
  public static List<String> validate(JsonObject schema, JsonObject value) {
    OutputUnit out = compile(schema).validate(value);
    if (Boolean.TRUE.equals(out.getValid())) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    collect(out, problems);
    return problems.isEmpty() ? List.of("does not match the schema") : problems;
  }

  private static void collect(OutputUnit unit, List<String> into) {
    if (unit.getErrors() != null) {
      for (OutputUnit u : unit.getErrors()) {
        collect(u, into);
      }
    }
    if (unit.getError() != null) {
      String where = unit.getInstanceLocation() == null || unit.getInstanceLocation().isEmpty()
          ? "arguments" : unit.getInstanceLocation();
      String line = where + ": " + unit.getError();
      if (!into.contains(line)) {
        into.add(line);
      }
    }
  }

  /** One page of tools/list for a revision with structured output. */
  public JsonObject page(String cursor) {
    return page(cursor, true);
  }

  /**
   * One page of tools/list; the cursor is an opaque offset token.
   *
   * @param outputSchemas whether the session's revision knows outputSchema (2025-06-18 on)
   */
  public JsonObject page(String cursor, boolean outputSchemas) {
    return page(cursor, outputSchemas, false);
  }

  /**
   * One page of tools/list.
   *
   * @param apps whether the client declared MCP Apps support: its tools name their result viewer
   */
  public JsonObject page(String cursor, boolean outputSchemas, boolean apps) {
    int offset = decodeCursor(cursor);
    List<Entry> all = new ArrayList<>(tools.values());
    JsonArray page = new JsonArray();
    for (int i = offset; i < Math.min(all.size(), offset + pageSize); i++) {
      page.add(all.get(i).listed(outputSchemas, apps));
    }
    JsonObject result = new JsonObject().put("tools", page);
    if (offset + pageSize < all.size()) {
      result.put("nextCursor", encodeCursor(offset + pageSize));
    }
    return result;
  }

  /** Returns -1 for a cursor we did not issue. */
  public static int decodeCursor(String cursor) {
    if (cursor == null) {
      return 0;
    }
    try {
      String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (s.startsWith("o:")) {
        int n = Integer.parseInt(s.substring(2));
        if (n >= 0) {
          return n;
        }
      }
    } catch (IllegalArgumentException ignored) {
      // falls through to "invalid"
    }
    return -1;
  }

  public static String encodeCursor(int offset) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(("o:" + offset).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Compiles a copy: the compiler writes its bookkeeping ({@code __absolute_uri__}) into the
   * object it is given, and the schema itself is what tools/list publishes.
   */
  private static Validator compile(JsonObject schema) {
    return Validator.create(JsonSchema.of(schema.copy()),
        new JsonSchemaOptions()
            .setDraft(Draft.DRAFT202012)
            .setBaseUri("https://sluice.dev/schemas/")
            .setOutputFormat(OutputFormat.Basic));
  }
}
