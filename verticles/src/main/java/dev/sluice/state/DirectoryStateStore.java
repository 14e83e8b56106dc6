package dev.sluice.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The single-node store: {@code <stateDir>/<area>/<key>}. Writes go to a temporary file (fsynced)
 * that is moved or linked into place, so a reader never sees a torn entry and a crash leaves only
 * a dot-file that the next listing removes. Claims live in memory: one process, nobody to share with.
 */
public final class DirectoryStateStore implements StateStore {

  private final Path root;
  private final Map<String, String> claims = new ConcurrentHashMap<>();

  public DirectoryStateStore(Path stateDir) {
    this.root = stateDir;
  }

  public Path dir(String area) {
    return root.resolve(area);
  }

  private Path file(String area, String key) {
    return dir(area).resolve(StateStore.checkKey(key));
  }

  @Override
  public Optional<Entry> get(String area, String key) {
    Path f = file(area, key);
    try {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
      return Optional.of(new Entry(key, Files.readString(f, StandardCharsets.UTF_8), version(a),
          a.lastModifiedTime().toInstant()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + f, e);
    }
  }

  @Override
  public Optional<String> version(String area, String key) {
    try {
      return Optional.of(version(Files.readAttributes(file(area, key), BasicFileAttributes.class)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A rename-into-place gives a new inode, so a replaced file always has a new version. */
  private static String version(BasicFileAttributes a) {
    return a.lastModifiedTime().toMillis() + ":" + a.size() + ":" + a.fileKey();
  }

  @Override
  public void put(String area, String key, String text) {
    Path target = file(area, key);
    try {
      Path tmp = temp(target, text);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  @Override
  public boolean create(String area, String key, String text) {
    Path target = file(area, key);
    try {
      if (Files.exists(target)) {
        return false;
      }
      Path tmp = temp(target, text);
      try {
        // a hard link fails if the target appeared meanwhile: two racing writers never clobber
        Files.createLink(target, tmp);
        return true;
      } catch (FileAlreadyExistsException raced) {
        return false;
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  private static Path temp(Path target, String text) throws IOException {
    Files.createDirectories(target.getParent());
    Path tmp = target.resolveSibling("." + target.getFileName() + "." + System.nanoTime() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        StandardOpenOption.SYNC);
    return tmp;
  }

  @Override
  public void remove(String area, String key) {
    try {
      Files.deleteIfExists(file(area, key));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + file(area, key), e);
    }
  }

  @Override
  public List<Entry> all(String area) {
    List<Entry> out = new ArrayList<>();
    for (Path f : files(area)) {
      get(area, f.getFileName().toString()).ifPresent(out::add);
    }
    return out;
  }

  @Override
  public String areaVersion(String area) {
    long h = 17;
    for (Path f : files(area)) {
      h = 31 * h + f.getFileName().toString().hashCode();
      h = 31 * h + version(area, f.getFileName().toString()).orElse("-").hashCode();
    }
    return Long.toString(h);
  }

  /** Entry files, sorted; temporary files an interrupted write left behind are removed. */
  private List<Path> files(String area) {
    Path dir = dir(area);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.sorted().toList()) {
        String n = p.getFileName().toString();
        if (n.startsWith(".") && n.endsWith(".tmp")) {
          deleteStale(p);
        } else if (StateStore.validKey(n) && Files.isRegularFile(p)) {
          out.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  @Override
  public void removeInterruptedWrites(String area) {
    Path dir = dir(area);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        String n = p.getFileName().toString();
        if (n.startsWith(".") && n.endsWith(".tmp")) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** While listing, only temporaries older than a minute: a younger one may belong to a write in progress. */
  private static void deleteStale(Path tmp) {
    try {
      if (Files.getLastModifiedTime(tmp).toMillis() < System.currentTimeMillis() - 60_000) {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException ignored) {
      // gone already, or unreadable: the next listing tries again
    }
  }

  @Override
  public boolean claim(String area, String key, String owner, long leaseMs) {
    String held = claims.putIfAbsent(area + "/" + key, owner);
    return held == null || held.equals(owner);
  }

  @Override
  public void putClaimed(String area, String key, String text, String owner, long leaseMs) {
    // one process owns a directory store: the claim only keeps its own runners apart
    put(area, key, text);
    claims.put(area + "/" + key, owner);
  }

  @Override
  public void renew(String owner, long leaseMs) {
    // in-memory claims do not lapse
  }

  @Override
  public void release(String area, String key, String owner) {
    claims.remove(area + "/" + key, owner);
  }

  @Override
  public List<String> lapsed(String area) {
    return List.of();
  }

  @Override
  public boolean shared() {
    return false;
  }

  @Override
  public void close() {}
}
