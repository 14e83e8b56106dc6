package dev.sluice.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Session ids name their node and shard; shard addresses are the same text however often asked for. */
class McpBusTest {

  @Test
  void aSessionIdNamesItsNodeAndShard() {
    McpBus.Route r = McpBus.route("node-a.3.f00d");
    assertEquals("node-a", r.nodeId());
    assertEquals(3, r.shard());
    assertEquals("sluice.mcp.session.node-a.3", r.address());
    for (String bad : new String[] {null, "", "nodots", ".3.x", "a..x", "a.3.", "a.x.y", "a.99999999999.y"}) {
      assertNull(McpBus.route(bad), bad);
    }
  }

  @Test
  void addressesAreMadeOnceAndClientsCannotGrowTheCache() {
    assertSame(McpBus.shard("node-b", 5), McpBus.shard("node-b", 5));
    assertEquals("sluice.mcp.session.node-b.70", McpBus.shard("node-b", 70));
    assertEquals("sluice.mcp.session.node-b.-1", McpBus.shard("node-b", -1));
    // node ids come from clients' session ids: past the kept number, addresses are still right
    for (int i = 0; i < 200; i++) {
      assertEquals("sluice.mcp.session.made-up-" + i + ".1", McpBus.shard("made-up-" + i, 1));
    }
  }
}
