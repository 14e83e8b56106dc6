package dev.sluice.mcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.testing.TestTools;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Registration as listeners (and so clients told list_changed) see it. */
class ToolRegistryTest {

  @Test
  void aReplacementIsOneChangeAndNoStateBetween() {
    ToolRegistry registry = new ToolRegistry();
    registry.register(TestTools.echo("kept")).register(TestTools.echo("old"));
    List<List<String>> seen = new ArrayList<>();
    registry.onChange(() -> seen.add(registry.names()));
    registry.replace(List.of("old"), List.of(TestTools.echo("new"), TestTools.echo("old")));
    assertEquals(List.of(List.of("kept", "new", "old")), seen, "one notification, the final list only");
    registry.replace(List.of(), List.of());
    assertEquals(1, seen.size(), "nothing changed, nothing told");
    assertThrows(IllegalStateException.class, () -> registry.replace(List.of(), List.of(TestTools.echo("kept"))));
  }
}
