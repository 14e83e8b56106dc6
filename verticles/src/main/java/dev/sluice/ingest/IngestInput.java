package dev.sluice.ingest;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import java.nio.charset.StandardCharsets;

/**
 * Checks content before a run exists, so a bad input writes nothing: not empty, within the size
 * cap, text (no NUL, almost no control characters), and with a heading that can become a safe
 * page key.
 */
final class IngestInput {

  private IngestInput() {}

  static void check(String content, int maxBytes) {
    if (content == null || content.isBlank()) {
      throw reject("empty", "content is empty; pass the knowledge as markdown text");
    }
    int bytes = content.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxBytes) {
      throw reject("too_large", "content is " + bytes + " bytes; the limit is " + maxBytes
          + " (ingest.max_content_bytes): split it into several notes")
          .with("bytes", bytes).with("maxBytes", maxBytes);
    }
    long control = content.chars().filter(ch -> ch == 0 || ch < 0x20 && ch != '\n' && ch != '\r' && ch != '\t'
        || ch == 0xFFFD).count();
    if (content.indexOf('\0') >= 0 || control > Math.max(2, content.length() / 100)) {
      throw reject("not_text", "content is not text (NUL or control characters, or invalid UTF-8); "
          + "memory_ingest takes markdown");
    }
    PageKeys.of(content);
  }

  static SqlError reject(String reason, String message) {
    return new SqlError(ErrorType.INVALID_ARGUMENT, message).with("reason", reason);
  }
}
