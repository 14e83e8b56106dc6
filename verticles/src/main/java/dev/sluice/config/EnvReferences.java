package dev.sluice.config;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code ${NAME}} and {@code ${NAME:-default}} in configuration strings. Errors name the
 * key and the variable, never a value: these references usually hold secrets.
 */
final class EnvReferences {

  private static final Pattern REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

  private EnvReferences() {}

  static String expand(String key, String value, Map<String, String> env) {
    if (value.indexOf("${") < 0) {
      return value;
    }
    Matcher m = REF.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env.get(m.group(1));
      if (v == null) {
        if (m.group(2) == null) {
          throw new ConfigException(key, "environment variable " + m.group(1)
              + " is not set (write ${" + m.group(1) + ":-default} to give a default)");
        }
        v = m.group(3);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    if (out.indexOf("${") >= 0 && !REF.matcher(value).find()) {
      throw new ConfigException(key, "malformed ${...} reference");
    }
    return out.toString();
  }
}
