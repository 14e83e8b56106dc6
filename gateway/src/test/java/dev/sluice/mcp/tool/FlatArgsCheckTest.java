package dev.sluice.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quick check in front of the JSON Schema validator may say "valid" only where the validator
 * says so too: tried on every shipped tool's schema with wrong types, bounds, missing and extra
 * arguments, and strings whose UTF-16 length differs from their code-point count.
 */
class FlatArgsCheckTest {

  private static final List<Object> SAMPLES = List.of("", "x", "SELECT 1", "𝄞", "𝄞𝄞", "a".repeat(5_000), 0, 1, -1,
      10_000, 10_001, 1_000_001, Long.MAX_VALUE, Long.MIN_VALUE, 5.0, 0.5, true, false, new JsonObject(),
      new JsonArray().add("x"), "orders", "last 30 days", "table", "column");

  @Test
  void neverSaysValidWhereTheValidatorDoesNot() throws Exception {
    int checked = 0;
    int quickYes = 0;
    List<String> wrong = new ArrayList<>();
    for (String name : ToolSpecFilesTest.names()) {
      JsonObject schema = ToolSpec.resource(name).inputSchema();
      FlatArgsCheck check = FlatArgsCheck.of(schema);
      if (check == null) {
        continue;
      }
      for (JsonObject args : candidates(schema)) {
        checked++;
        if (check.passes(args)) {
          quickYes++;
          if (ToolRegistry.validate(schema, args) != null) {
            wrong.add(name + " " + args.encode().substring(0, Math.min(200, args.encode().length())));
          }
        }
      }
    }
    assertTrue(wrong.isEmpty(), "quick yes, validator no:\n" + String.join("\n", wrong));
    // not a check that says no to everything: it takes a real share of the candidates
    assertTrue(checked > 1_000 && quickYes > checked / 20, checked + " candidates, " + quickYes + " quick yeses");
  }

  @Test
  void theHotToolsTakeTheQuickPath() {
    for (String name : List.of("sql_execution", "sql_explain", "wiki_read")) {
      assertNotNull(FlatArgsCheck.of(ToolSpec.resource(name).inputSchema()), name);
    }
    FlatArgsCheck sql = FlatArgsCheck.of(ToolSpec.resource("sql_execution").inputSchema());
    assertTrue(sql.passes(new JsonObject().put("connectionId", "demo").put("sql", "SELECT 1")));
    assertTrue(sql.passes(new JsonObject().put("connectionId", "demo").put("sql", "SELECT 1").put("maxRows", 10_000)));
    assertFalse(sql.passes(new JsonObject().put("connectionId", "demo").put("sql", "SELECT 1").put("maxRows", 10_001)));
    assertFalse(sql.passes(new JsonObject().put("connectionId", "demo").put("sql", "")));
    assertFalse(sql.passes(new JsonObject().put("connectionId", "demo")));
    assertFalse(sql.passes(new JsonObject().put("connectionId", "demo").put("sql", "SELECT 1").put("extra", 1)));
  }

  /** A schema beyond a flat object goes to the validator whole. */
  @Test
  void anythingItDoesNotKnowIsLeftToTheValidator() {
    JsonObject flat = new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("a", new JsonObject().put("type", "string")));
    assertNotNull(FlatArgsCheck.of(flat));
    assertNull(FlatArgsCheck.of(flat.copy().put("oneOf", new JsonArray())));
    assertNull(FlatArgsCheck.of(flat.copy().put("additionalProperties", new JsonObject().put("type", "string"))));
    assertNull(FlatArgsCheck.of(flat.copy().put("properties",
        new JsonObject().put("a", new JsonObject().put("type", "string").put("pattern", "^x")))));
    assertNull(FlatArgsCheck.of(flat.copy().put("properties",
        new JsonObject().put("a", new JsonObject().put("type", "array")))));
    assertNull(FlatArgsCheck.of(flat.copy().put("properties",
        new JsonObject().put("a", new JsonObject().put("type", new JsonArray().add("string").add("null"))))));
  }

  @Test
  void theRegistryStillReportsEveryViolation() {
    ToolRegistry registry = new ToolRegistry();
    ToolSpec spec = ToolSpec.resource("sql_execution");
    registry.register(new Tool() {
      @Override
      public ToolSpec spec() {
        return spec;
      }

      @Override
      public io.vertx.core.Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        return io.vertx.core.Future.failedFuture("not called");
      }
    });
    assertNull(registry.validate("sql_execution", new JsonObject().put("connectionId", "d").put("sql", "SELECT 1")));
    // an integer written 5.0 is one for JSON Schema: the quick check says no, the validator yes
    assertNull(registry.validate("sql_execution", new JsonObject().put("connectionId", "d").put("sql", "SELECT 1")
        .put("maxRows", 5.0)));
    List<String> problems = registry.validate("sql_execution", new JsonObject().put("connectionId", "d")
        .put("sql", "SELECT 1").put("maxRows", 0));
    assertTrue(problems.stream().anyMatch(m -> m.contains("maxRows") && m.contains("less than")), String.valueOf(problems));
  }

  /** Every property with every sample, the required set complete, one short, and one extra. */
  private static List<JsonObject> candidates(JsonObject schema) {
    JsonObject props = schema.getJsonObject("properties", new JsonObject());
    JsonArray required = schema.getJsonArray("required", new JsonArray());
    JsonObject base = new JsonObject();
    for (Object r : required) {
      JsonObject p = props.getJsonObject((String) r, new JsonObject());
      base.put((String) r, typical(p));
    }
    List<JsonObject> out = new ArrayList<>();
    out.add(base.copy());
    out.add(new JsonObject());
    for (String name : props.fieldNames()) {
      for (Object sample : SAMPLES) {
        out.add(base.copy().put(name, sample));
        for (String other : props.fieldNames()) {
          if (!other.equals(name)) {
            out.add(base.copy().put(name, sample).put(other, typical(props.getJsonObject(other))));
          }
        }
      }
      JsonObject missing = base.copy();
      missing.remove(name);
      out.add(missing);
    }
    out.add(base.copy().put("not_an_argument", "x"));
    return out;
  }

  private static Object typical(JsonObject property) {
    JsonArray choices = property.getJsonArray("enum");
    if (choices != null && !choices.isEmpty()) {
      return choices.getValue(0);
    }
    return switch (String.valueOf(property.getValue("type"))) {
      case "integer" -> property.getInteger("minimum", 1);
      case "boolean" -> true;
      case "number" -> 1.5;
      case "array" -> new JsonArray();
      case "object" -> new JsonObject();
      default -> "x".repeat(Math.max(1, property.getInteger("minLength", 1)));
    };
  }
}
