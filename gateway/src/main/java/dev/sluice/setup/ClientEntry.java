package dev.sluice.setup;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;

/**
 * Our one entry in one client's JSON config: {@code container.sluice = entry} in {@code file}.
 *
 * @param client the client's name, for messages
 * @param container the mapping that holds MCP servers ({@code mcpServers}, VS Code's {@code servers})
 */
public record ClientEntry(String client, Path file, String container, JsonObject entry) {

  public static final String NAME = "sluice";
}
