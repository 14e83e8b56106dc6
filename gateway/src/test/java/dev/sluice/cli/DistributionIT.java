package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.GatewayJar;
import dev.sluice.testing.NodeClients;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The distribution the build makes: unpacked, its launcher starts a gateway. */
class DistributionIT {

  @TempDir
  Path dir;

  @Test
  void theTarballUnpacksToALauncherThatServes() throws Exception {
    Path tarball;
    try (Stream<Path> s = Files.list(NodeClients.projectRoot().resolve("gateway/target"))) {
      tarball = s.filter(p -> p.getFileName().toString().matches("sluice-.+\\.tar\\.gz")).findFirst()
          .orElseThrow(() -> new AssertionError("no sluice-<version>.tar.gz in gateway/target"));
    }
    Process tar = new ProcessBuilder("tar", "xzf", tarball.toString(), "-C", dir.toString()).inheritIO().start();
    assertTrue(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0);
    String name = tarball.getFileName().toString().replace(".tar.gz", "");
    Path home = dir.resolve(name);
    for (String f : List.of("bin/sluice", "lib/sluice.jar", "conf/sluice.yaml", "conf/semantic/demo/orders.yaml",
        "systemd/sluice.service", "README.md")) {
      assertTrue(Files.exists(home.resolve(f)), f + " is missing from " + name);
    }
    assertTrue(Files.isExecutable(home.resolve("bin/sluice")));
    assertTrue(Files.readString(home.resolve("systemd/sluice.service")).contains("ExecStart=/opt/sluice/bin/sluice"));

    Process version = new ProcessBuilder(home.resolve("bin/sluice").toString(), "--version").redirectErrorStream(true)
        .start();
    assertTrue(version.waitFor(30, TimeUnit.SECONDS));
    assertEquals("sluice " + name.substring("sluice-".length()),
        new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());

    // the default JVM settings are valid, and the launcher works from any directory (through a symlink too)
    Path link = Files.createSymbolicLink(dir.resolve("sluice-link"), home.resolve("bin/sluice"));
    ProcessBuilder pb = new ProcessBuilder(link.toString(), "--port", "0", "--config", home.resolve("conf/sluice.yaml").toString())
        .directory(dir.toFile()).redirectError(dir.resolve("err.log").toFile());
    pb.environment().put("SLUICE_JAVA_OPTS", GatewayJar.JIT); // added after the defaults this test checks
    Process p = pb.start();
    try {
      String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
      assertTrue(line != null && line.contains("serving MCP at http://127.0.0.1:"), line + Files.readString(dir.resolve("err.log")));
      assertTrue(p.info().arguments().map(List::of).orElse(List.of()).contains("-XX:+ExitOnOutOfMemoryError"),
          "the launcher's default JVM settings: " + p.info().arguments());
    } finally {
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    }
  }
}
