package dev.sluice.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Bearer tokens as the config holds them: {@code sha256:<64 hex>} (what {@code sluice token new}
 * prints to paste), or the token itself, typically through a {@code ${ENV}} reference. Either way
 * only the digest is kept after loading.
 */
public final class Tokens {

  /** 24 random bytes: 192 bits, far beyond guessing. */
  static final int TOKEN_BYTES = 24;
  static final int MIN_PLAIN_LENGTH = 16;

  private Tokens() {}

  public static String newToken() {
    byte[] b = new byte[TOKEN_BYTES];
    new SecureRandom().nextBytes(b);
    return "sluice_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  public static String sha256Hex(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String digestOf(String key, String configured) {
    String v = configured.trim();
    if (v.toLowerCase(Locale.ROOT).startsWith("sha256:")) {
      String hex = v.substring(7).toLowerCase(Locale.ROOT);
      if (!hex.matches("[0-9a-f]{64}")) {
        throw new ConfigException(key, "a sha256: token needs 64 hex digits (as printed by `sluice token new`)");
      }
      return hex;
    }
    if (v.length() < MIN_PLAIN_LENGTH) {
      throw new ConfigException(key, "a token must be at least " + MIN_PLAIN_LENGTH + " characters; generate one "
          + "with `java -jar sluice.jar token new <principal>`");
    }
    return sha256Hex(v);
  }
}
