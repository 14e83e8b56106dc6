package dev.sluice.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An attack corpus: a resource of blocks, each opened by a line {@code @@@ <expect> <label>} and
 * holding the statement verbatim on the lines after it (its last line break removed). Characters a
 * file cannot hold or an editor would change are written {@code {CR}}, {@code {TAB}},
 * {@code {NUL}} or {@code {U+XXXX}}; {@code {NAME}} placeholders are filled from the test's
 * variables (an output path, a lock key, a database name).
 *
 * <p>{@code expect} is {@code refuse} (the gateway must answer with an in-band tool error),
 * {@code any} (it may run: the engine reads it as harmless, e.g. a write inside a comment; only
 * the invariants are checked) or {@code ok} (a control that must run, proving the gateway is not
 * refusing everything).
 */
record Attacks(String resource, List<Attack> list) {

  enum Expect { REFUSE, ANY, OK }

  record Attack(String resource, String label, Expect expect, String sql) {
    @Override
    public String toString() {
      return resource + " [" + label + "] " + printable(sql);
    }
  }

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Z_]+|U\\+[0-9A-Fa-f]{4})}");

  static Attacks load(String resource, Map<String, String> vars) {
    String text;
    try (InputStream in = Attacks.class.getResourceAsStream("/security/" + resource)) {
      if (in == null) {
        throw new IllegalStateException("no test resource /security/" + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Attack> out = new ArrayList<>();
    String label = null;
    Expect expect = null;
    StringBuilder body = new StringBuilder();
    for (String line : (text + "\n@@@ end").split("\n", -1)) {
      if (line.startsWith("@@@")) {
        if (label != null) {
          String sql = body.toString();
          if (sql.endsWith("\n")) {
            sql = sql.substring(0, sql.length() - 1);
          }
          out.add(new Attack(resource, label, expect, fill(sql, vars)));
        }
        String[] h = line.substring(3).strip().split(" ", 2);
        expect = switch (h[0]) {
          case "refuse" -> Expect.REFUSE;
          case "any" -> Expect.ANY;
          case "ok" -> Expect.OK;
          case "end" -> null;
          default -> throw new IllegalStateException(resource + ": unknown expectation in '" + line + "'");
        };
        label = expect == null ? null : h.length > 1 ? h[1] : h[0];
        body.setLength(0);
      } else if (label != null) {
        body.append(line).append('\n');
      }
    }
    return new Attacks(resource, List.copyOf(out));
  }

  private static String fill(String sql, Map<String, String> vars) {
    Matcher m = PLACEHOLDER.matcher(sql);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String k = m.group(1);
      String v = switch (k) {
        case "CR" -> "\r";
        case "TAB" -> "\t";
        case "NUL" -> "\u0000";
        default -> k.startsWith("U+") ? String.valueOf((char) Integer.parseInt(k.substring(2), 16)) : vars.get(k);
      };
      if (v == null) {
        throw new IllegalStateException("no value for {" + k + "} in " + sql);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The statement on one line, control characters shown, for failure messages. */
  static String printable(String sql) {
    StringBuilder b = new StringBuilder();
    String s = sql.length() > 300 ? sql.substring(0, 300) + "...(" + sql.length() + " chars)" : sql;
    for (char c : s.toCharArray()) {
      if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        b.append("\\r");
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
