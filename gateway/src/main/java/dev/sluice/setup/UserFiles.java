package dev.sluice.setup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Reads and writes a file the user owns without changing what they set up: a symlink stays a
 * symlink (the write goes to its target), the target keeps its permissions (a 0600 file stays
 * 0600), and the replacement is atomic (a temp file beside the target, then a rename), so a crash
 * leaves the old or the new content, never half of it.
 */
public final class UserFiles {

  /** Client configs are small; a larger file is not one we should be rewriting. */
  public static final long MAX_BYTES = 8L * 1024 * 1024;
  /** A new file may receive a token reference: readable by its owner only. */
  static final Set<PosixFilePermission> NEW_FILE = PosixFilePermissions.fromString("rw-------");

  private UserFiles() {}

  /** The file's text (through symlinks), or null when it does not exist. */
  public static String read(Path file) throws IOException {
    Path target = target(file);
    if (!Files.exists(target)) {
      return null;
    }
    if (Files.size(target) > MAX_BYTES) {
      throw new IOException(file + " is larger than " + MAX_BYTES / (1024 * 1024) + " MiB; not editing it");
    }
    return Files.readString(target, StandardCharsets.UTF_8);
  }

  /** Replaces the content of {@code file}, or of the file its symlink chain ends at. */
  public static void write(Path file, String text) throws IOException {
    Path target = target(file);
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    boolean existed = Files.exists(target);
    Set<PosixFilePermission> mode = existed ? permissions(target) : NEW_FILE;
    Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".sluice-tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      if (mode != null) {
        Files.setPosixFilePermissions(tmp, mode);
      }
      if (existed) {
        keepOwner(target, tmp);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Deletes what {@code file} points at (a symlink's target, the link itself stays). */
  public static void delete(Path file) throws IOException {
    Files.deleteIfExists(target(file));
  }

  /**
   * Where writes to {@code file} land: the end of its symlink chain (relative links resolve
   * against the link's directory; a dangling link's target is created), else the file itself.
   */
  public static Path target(Path file) throws IOException {
    Path p = file.toAbsolutePath();
    for (int hops = 0; Files.isSymbolicLink(p); hops++) {
      if (hops > 40) {
        throw new IOException(file + ": too many levels of symbolic links");
      }
      p = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
    }
    return p;
  }

  /** Run with sudo, the replacement would belong to root; give it back to the file's owner. */
  private static void keepOwner(Path from, Path to) {
    try {
      PosixFileAttributeView src = Files.getFileAttributeView(from, PosixFileAttributeView.class);
      PosixFileAttributeView dst = Files.getFileAttributeView(to, PosixFileAttributeView.class);
      if (src != null && dst != null) {
        var attrs = src.readAttributes();
        if (!attrs.owner().equals(dst.readAttributes().owner())) {
          dst.setOwner(attrs.owner());
          dst.setGroup(attrs.group());
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not permitted (we are not root): the file is ours anyway
    }
  }

    private static Set<PosixFilePermission> permissions(Path p) throws IOException {
    PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    return view == null ? null : view.readAttributes().permissions();
  }
}
