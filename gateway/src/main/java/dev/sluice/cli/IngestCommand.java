package dev.sluice.cli;

import dev.sluice.config.SluiceConfig;
import dev.sluice.gateway.OneOffIngest;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice ingest --file F [--connection ID]}: memory_ingest from the command line. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Ingest a markdown note into the wiki through the memory_ingest path (same checks, same "
        + "page keys, same no-clobber rule). A running gateway with the same state directory finds it on "
        + "its next search.")
final class IngestCommand implements Callable<Integer> {

  @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: the embedded demo)")
  Path config;

  @Option(names = "--file", paramLabel = "FILE", required = true, description = "the markdown note")
  Path file;

  @Option(names = "--connection", paramLabel = "ID", description = "scope the page to this connection")
  String connection;

  @Override
  public Integer call() throws Exception {
    SluiceConfig cfg = Startup.loadOrReport(config, 0, "127.0.0.1");
    if (cfg == null) {
      return SluiceCommand.EXIT_USAGE;
    }
    String content;
    try {
      content = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(file)))
          .toString();
    } catch (CharacterCodingException e) {
      System.err.println("sluice: ingest refused (not_text): " + file + " is not UTF-8 text");
      return SluiceCommand.EXIT_USAGE;
    } catch (IOException e) {
      System.err.println("sluice: cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
      return SluiceCommand.EXIT_USAGE;
    }
    try {
      JsonObject s = OneOffIngest.run(cfg, content, connection);
      if ("completed".equals(s.getString("status"))) {
        JsonObject page = s.getJsonArray("pages").getJsonObject(0);
        System.out.println("ingested: page " + page.getString("key") + " (" + page.getString("action") + "), run "
            + s.getString("runId"));
        s.getJsonArray("warnings").forEach(w -> System.out.println("warning: " + w));
        return 0;
      }
      System.err.println("sluice: ingest failed (" + s.getJsonObject("error").getString("type") + "): "
          + s.getJsonObject("error").getString("message"));
      return 1;
    } catch (Exception e) {
      SqlError err = SqlError.from(e);
      String reason = err.details().getString("reason");
      System.err.println("sluice: ingest refused (" + (reason != null ? reason : err.type().wireName()) + "): "
          + err.getMessage());
      return SluiceCommand.EXIT_USAGE;
    }
  }
}
