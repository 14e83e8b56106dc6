package dev.sluice.setup;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Adds, replaces and removes our entry in client config files and our guide files, recording in
 * the {@link SetupManifest} what was there first. Only {@code <container>.sluice} is ever touched;
 * every other key, the file's mode and any symlink stay as they were. Returns one line per change
 * for the user ("would ..." on a dry run).
 */
final class EntryEditor {

  private final SetupManifest manifest;
  private final boolean dryRun;

  EntryEditor(SetupManifest manifest, boolean dryRun) {
    this.manifest = manifest;
    this.dryRun = dryRun;
  }

  String add(ClientEntry e) throws IOException {
    String text = UserFiles.read(e.file());
    JsonObject doc = parse(e.file(), text);
    JsonObject servers = container(e, doc);
    JsonObject previous = servers == null ? null : servers.getJsonObject(ClientEntry.NAME);
    if (previous != null && previous.equals(e.entry())) {
      return "unchanged " + where(e);
    }
    if (!dryRun) {
      // the first edit's "before" is what --remove restores, not our own entry of an earlier run
      manifest.recordConfigFile(e.file(), text == null, servers == null, previous);
      doc.put(e.container(), (servers == null ? new JsonObject() : servers).put(ClientEntry.NAME, e.entry()));
      UserFiles.write(e.file(), doc.encodePrettily() + "\n");
    }
    return (dryRun ? "would " : "") + (previous == null ? "add " : "replace ") + where(e) + ": " + e.entry().encode();
  }

  String remove(ClientEntry e) throws IOException {
    String text = UserFiles.read(e.file());
    JsonObject record = manifest.configFile(e.file());
    if (text == null) {
      manifest.forgetConfigFile(e.file());
      return null;
    }
    JsonObject doc = parse(e.file(), text);
    JsonObject servers = container(e, doc);
    if (servers == null || !servers.containsKey(ClientEntry.NAME)) {
      manifest.forgetConfigFile(e.file());
      return null;
    }
    JsonObject previous = record == null ? null : record.getJsonObject("previous");
    String line;
    if (previous != null) {
      servers.put(ClientEntry.NAME, previous);
      line = "restore the earlier " + where(e);
    } else {
      servers.remove(ClientEntry.NAME);
      line = "remove " + where(e);
    }
    if (servers.isEmpty() && record != null && record.getBoolean("createdContainer", false)) {
      doc.remove(e.container());
    }
    boolean deleteFile = doc.isEmpty() && record != null && record.getBoolean("createdFile", false);
    if (!dryRun) {
      if (deleteFile) {
        UserFiles.delete(e.file());
      } else {
        UserFiles.write(e.file(), doc.encodePrettily() + "\n");
      }
      manifest.forgetConfigFile(e.file());
    }
    return (dryRun ? "would " : "") + line + (deleteFile ? " (and the file, which setup-agents created)" : "");
  }

  String writeGuide(Path file, String text) throws IOException {
    String before = UserFiles.read(file);
    if (text.equals(before)) {
      return "unchanged " + file;
    }
    if (!dryRun) {
      UserFiles.write(file, text);
      manifest.recordGuide(file, text);
    }
    return (dryRun ? "would write " : "wrote ") + file;
  }

  /** Deletes a guide we wrote, unless it was edited since (then it is the user's). */
  String removeGuide(Path file, String currentText) throws IOException {
    String now = UserFiles.read(file);
    if (now == null) {
      manifest.forgetGuide(file);
      return null;
    }
    String ours = manifest.guideHash(file);
    String hash = SetupManifest.sha256(now);
    if (!hash.equals(ours) && !now.equals(currentText)) {
      return "kept " + file + " (edited since setup-agents wrote it)";
    }
    if (!dryRun) {
      UserFiles.delete(file);
      manifest.forgetGuide(file);
      Path dir = file.getParent();
      if (dir.getFileName().toString().equals("sluice-research") && isEmptyDir(dir)) {
        Files.delete(dir);
      }
    }
    return (dryRun ? "would delete " : "deleted ") + file;
  }

  private static boolean isEmptyDir(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }

  private static JsonObject parse(Path file, String text) {
    if (text == null || text.isBlank()) {
      return new JsonObject();
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalStateException(file + " is not valid JSON; fix or move it, nothing was changed");
    }
  }

  private static JsonObject container(ClientEntry e, JsonObject doc) {
    Object c = doc.getValue(e.container());
    if (c != null && !(c instanceof JsonObject)) {
      throw new IllegalStateException(e.file() + ": \"" + e.container() + "\" is not an object; nothing was changed");
    }
    return (JsonObject) c;
  }

  private static String where(ClientEntry e) {
    return e.container() + "." + ClientEntry.NAME + " in " + e.file();
  }
}
