package dev.sluice.setup;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What setup-agents changed, so {@code --remove} can take out exactly that and put back what was
 * there before: per config file whether we created the file and its servers mapping and which
 * {@code sluice} entry (if any) we replaced; per guide file the hash of what we wrote (a guide the
 * user has since edited is left alone). Kept in {@code $HOME/.sluice/setup-agents.json}, 0600.
 */
final class SetupManifest {

  private final Path file;
  private final JsonObject doc;

  private SetupManifest(Path file, JsonObject doc) {
    this.file = file;
    this.doc = doc;
  }

  static SetupManifest load(Path home) throws IOException {
    Path file = home.resolve(".sluice/setup-agents.json");
    String text = UserFiles.read(file);
    JsonObject doc;
    try {
      doc = text == null || text.isBlank() ? new JsonObject() : new JsonObject(text);
    } catch (DecodeException e) {
      throw new IllegalStateException(file + " is not valid JSON; move it away to start over");
    }
    return new SetupManifest(file, doc);
  }

  /** The record of a config file we edited, or null. */
  JsonObject configFile(Path path) {
    return doc.getJsonObject("files", new JsonObject()).getJsonObject(key(path));
  }

  /** Records the state before our first edit of {@code path}; later runs keep that first record. */
  void recordConfigFile(Path path, boolean createdFile, boolean createdContainer, JsonObject previous) {
    JsonObject files = doc.getJsonObject("files", new JsonObject());
    if (!files.containsKey(key(path))) {
      files.put(key(path), new JsonObject().put("createdFile", createdFile).put("createdContainer", createdContainer)
          .put("previous", previous));
    }
    doc.put("files", files);
  }

  void forgetConfigFile(Path path) {
    doc.getJsonObject("files", new JsonObject()).remove(key(path));
  }

  String guideHash(Path path) {
    return doc.getJsonObject("guides", new JsonObject()).getString(key(path));
  }

  void recordGuide(Path path, String text) {
    doc.put("guides", doc.getJsonObject("guides", new JsonObject()).put(key(path), sha256(text)));
  }

  void forgetGuide(Path path) {
    doc.getJsonObject("guides", new JsonObject()).remove(key(path));
  }

  void save() throws IOException {
    if (doc.getJsonObject("files", new JsonObject()).isEmpty() && doc.getJsonObject("guides", new JsonObject()).isEmpty()) {
      UserFiles.delete(file);
      try (var left = java.nio.file.Files.list(file.getParent())) {
        if (left.findAny().isEmpty()) {
          java.nio.file.Files.delete(file.getParent());
        }
      } catch (java.nio.file.NoSuchFileException gone) {
        // never created
      }
    } else {
      UserFiles.write(file, doc.encodePrettily() + "\n");
    }
  }

  static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String key(Path path) {
    return path.toAbsolutePath().normalize().toString();
  }
}
