package dev.sluice.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every tool definition kept as data (src/main/resources/tools/*.yaml), checked at build time. */
class ToolSpecFilesTest {

  /** Every tool defined under src/main/resources/tools/, by name. */
  static List<String> names() throws Exception {
    Path dir = Path.of(ToolSpec.class.getClassLoader().getResource(ToolSpec.RESOURCE_DIR).toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".yaml"))
          .map(f -> f.substring(0, f.length() - ".yaml".length())).sorted().toList();
    }
  }

  @Test
  void everySpecFileIsACompleteToolDefinition() throws Exception {
    List<String> names = names();
    assertTrue(names.size() >= 18, "spec files: " + names);
    List<String> problems = new ArrayList<>();
    for (String name : names) {
      ToolSpec spec = ToolSpec.resource(name);
      if (!name.equals(spec.name())) {
        problems.add(name + ".yaml names the tool '" + spec.name() + "'");
      }
      problems.addAll(PublishedToolRules.violations(spec.toJson()));
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  /** The schema compiler writes into the object it compiles; what tools/list publishes stays as written. */
  @Test
  void registeringAndValidatingLeaveThePublishedDefinitionAsWritten() throws Exception {
    ToolRegistry registry = new ToolRegistry();
    for (String name : names()) {
      registry.register(new Tool() {
        final ToolSpec spec = ToolSpec.resource(name);

        @Override
        public ToolSpec spec() {
          return spec;
        }

        @Override
        public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
          return Future.failedFuture("not called");
        }
      });
      assertFalse(registry.validate(name, new JsonObject().put("no_such_argument", 1)) == null,
          name + " refuses an unknown argument");
    }
    List<Object> listed = registry.page(null).getJsonArray("tools").getList();
    for (Object o : listed) {
      JsonObject tool = o instanceof JsonObject j ? j : new JsonObject((java.util.Map<String, Object>) o);
      assertEquals(ToolSpec.resource(tool.getString("name")).toJson(), tool, tool.getString("name"));
      assertFalse(tool.encode().contains("__"), tool.encode());
    }
  }
}
