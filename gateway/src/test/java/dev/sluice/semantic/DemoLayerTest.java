package dev.sluice.semantic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.testing.NodeClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded demo's example layer is conf/semantic/demo, installed once and never over an operator's choice. */
class DemoLayerTest {

  @TempDir
  Path state;

  @Test
  void installsTheExampleLayerOnceAndLeavesAnExistingDirectoryAlone() throws Exception {
    Path conf = NodeClients.projectRoot().resolve("conf/semantic/demo");
    List<String> shipped;
    try (Stream<Path> files = Files.list(conf)) {
      shipped = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
    }
    assertEquals(shipped, DemoLayer.installIfAbsent(state));
    for (String name : shipped) {
      assertEquals(Files.readString(conf.resolve(name)), Files.readString(state.resolve("semantic/demo").resolve(name)));
    }
    try (Stream<Path> left = Files.list(state.resolve("semantic"))) {
      assertEquals(List.of("demo"), left.map(p -> p.getFileName().toString()).toList(), "no temp directory left");
    }

    // an operator who emptied the directory wants no layer
    for (String name : shipped) {
      Files.delete(state.resolve("semantic/demo").resolve(name));
    }
    assertEquals(List.of(), DemoLayer.installIfAbsent(state));
    try (Stream<Path> files = Files.list(state.resolve("semantic/demo"))) {
      assertEquals(0, files.count());
    }
  }
}
