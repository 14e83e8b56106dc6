package dev.sluice.wiki;

import java.util.regex.Pattern;

/**
 * Page keys are file names: letters, digits, '-', '_' and inner dots, at most 128 characters. No
 * separators and no leading dot, so a key can never leave the wiki directory or hide a file.
 */
public final class WikiKeys {

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  private WikiKeys() {}

  public static boolean valid(String key) {
    return key != null && SAFE.matcher(key).matches() && !key.contains("..") && !key.endsWith(".");
  }
}
