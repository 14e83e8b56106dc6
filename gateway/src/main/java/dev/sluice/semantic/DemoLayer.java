package dev.sluice.semantic;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The example semantic layer of the embedded demo (conf/semantic/demo, carried in the jar as
 * {@code demo-semantic/}). Installed into {@code <state.dir>/semantic/demo/} when that directory
 * does not exist yet, so sl_query answers on a first start; an operator who wants no layer empties
 * the directory and keeps it.
 */
public final class DemoLayer {

  static final String RESOURCE = "demo-semantic";

  private DemoLayer() {}

  /** @return the files installed: none when the directory was already there. Blocking file I/O. */
  public static List<String> installIfAbsent(Path stateDir) throws IOException {
    Path target = stateDir.resolve("semantic").resolve("demo");
    if (Files.exists(target)) {
      return List.of();
    }
    URL url = DemoLayer.class.getClassLoader().getResource(RESOURCE);
    if (url == null) {
      return List.of();
    }
    Path tmp = Files.createDirectories(stateDir.resolve("semantic")).resolve(".demo-" + System.nanoTime());
    Files.createDirectories(tmp);
    List<String> names;
    try (Source source = Source.of(url)) {
      try (Stream<Path> files = Files.list(source.dir())) {
        names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
      }
      for (String name : names) {
        try (InputStream in = Files.newInputStream(source.dir().resolve(name))) {
          Files.copy(in, tmp.resolve(name));
        }
      }
    }
    // all or nothing: a half-copied layer would look like an operator's choice
    Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return names;
  }

  /** The resource directory, in the jar or (tests, IDE) on disk. */
  private record Source(Path dir, FileSystem jar) implements AutoCloseable {
    static Source of(URL url) throws IOException {
      try {
        URI uri = url.toURI();
        if ("jar".equals(uri.getScheme())) {
          FileSystem fs = FileSystems.newFileSystem(uri, Map.of());
          return new Source(fs.getPath(RESOURCE), fs);
        }
        return new Source(Path.of(uri), null);
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }

    @Override
    public void close() throws IOException {
      if (jar != null) {
        jar.close();
      }
    }
  }
}
