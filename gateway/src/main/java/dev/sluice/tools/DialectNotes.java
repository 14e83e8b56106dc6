package dev.sluice.tools;

import dev.sluice.sql.Driver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Our per-dialect SQL notes, read once from {@code /dialect-notes/<driver>.md} in the jar. Each
 * note is markdown with one {@code ## Topic} section per concern (quoting, dates, top-N...).
 */
public final class DialectNotes {

  /** The topics every dialect's notes must cover, in order; the test pins the files to it. */
  public static final List<String> TOPICS = List.of("Qualified names", "Identifiers: quoting and case",
      "Dates and intervals", "Top-N", "JSON access", "Safe casts", "Integer division", "Rounding",
      "String aggregation and order");

  private final Map<Driver, Note> notes;

  private DialectNotes(Map<Driver, Note> notes) {
    this.notes = notes;
  }

  /** One dialect's note: the whole markdown and its section titles. */
  public record Note(String markdown, List<String> topics) {}

  public static DialectNotes load() {
    Map<Driver, Note> all = new EnumMap<>(Driver.class);
    for (Driver d : Driver.values()) {
      String path = "/dialect-notes/" + d.wireName() + ".md";
      try (InputStream in = DialectNotes.class.getResourceAsStream(path)) {
        if (in == null) {
          throw new IllegalStateException("missing resource " + path + " in the jar");
        }
        String md = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        all.put(d, new Note(md, topics(md)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new DialectNotes(all);
  }

  public Note of(Driver driver) {
    return notes.get(driver);
  }

  static List<String> topics(String markdown) {
    List<String> out = new ArrayList<>();
    for (String line : markdown.split("\n")) {
      if (line.startsWith("## ")) {
        out.add(line.substring(3).trim());
      }
    }
    return out;
  }
}
