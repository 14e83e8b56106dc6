package dev.sluice.engine.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLinesTest {

  /** A pipe that hands over at most {@code piece} bytes per read, as a pipe may. */
  private static InputStream trickle(byte[] bytes, int piece) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, piece));
      }
    };
  }

  private static List<String> lines(byte[] bytes, int piece) throws IOException {
    List<String> out = new ArrayList<>();
    JsonLines.read(trickle(bytes, piece), (line, length) -> out.add(new String(line, 0, length, StandardCharsets.UTF_8)));
    return out;
  }

  @Test
  void linesSplitAcrossReadsComeOutWhole() throws IOException {
    byte[] text = "{\"a\":1}\n{\"b\":\"ü€\"}\n\n{\"c\":[1,2]}\n".getBytes(StandardCharsets.UTF_8);
    for (int piece : new int[] {1, 2, 3, 7, 8_192}) {
      assertEquals(List.of("{\"a\":1}", "{\"b\":\"ü€\"}", "", "{\"c\":[1,2]}"), lines(text, piece), "pieces of " + piece);
    }
  }

  @Test
  void aLineLongerThanTheReadBufferAndTheLineAfterIt() throws IOException {
    String big = "x".repeat(3 * 1024 * 1024);
    byte[] text = (big + "\nsmall\n").getBytes(StandardCharsets.UTF_8);
    List<String> got = lines(text, 5_000);
    assertEquals(2, got.size());
    assertEquals(big, got.get(0));
    assertEquals("small", got.get(1));
  }

  @Test
  void anUnterminatedLastLineIsNotHandedOn() throws IOException {
    // a worker killed mid-answer leaves half a line: it is never parsed as an answer
    assertEquals(List.of("{\"done\":true}"), lines("{\"done\":true}\n{\"half\":".getBytes(StandardCharsets.UTF_8), 4));
  }
}
