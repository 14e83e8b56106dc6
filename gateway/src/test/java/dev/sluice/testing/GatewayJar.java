package dev.sluice.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How the integration tests run the built fat jar in a JVM of its own. */
public final class GatewayJar {

  /**
   * C1 only. A test gateway lives for seconds: with C2 its start-up cost 4.1–4.5 s of CPU against
   * 2.3–2.9 s without, on a 2-core machine that runs dozens of them per suite. Semantics are the
   * same at any JIT level.
   */
  public static final String JIT = "-XX:TieredStopAtLevel=1";

  private GatewayJar() {}

  public static Path path() {
    Path jar = NodeClients.projectRoot().resolve("gateway/target/sluice.jar");
    org.junit.jupiter.api.Assertions.assertTrue(Files.exists(jar), "the fat jar is built before integration tests");
    return jar;
  }

  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code java -XX:TieredStopAtLevel=1 -jar sluice.jar args...} */
  public static List<String> command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(java(), JIT, "-jar", path().toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
