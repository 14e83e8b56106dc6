package dev.sluice.sql;

import java.util.Locale;

/** The database engines Sluice talks to. {@code mysql} covers MariaDB (flavour detected at connect). */
public enum Driver {
  POSTGRES,
  MYSQL,
  SQLITE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a config value; returns null when unknown so the caller can name the bad key. */
  public static Driver parse(String s) {
    if (s == null) {
      return null;
    }
    switch (s.toLowerCase(Locale.ROOT)) {
      case "postgres":
      case "postgresql":
        return POSTGRES;
      case "mysql":
      case "mariadb":
        return MYSQL;
      case "sqlite":
        return SQLITE;
      default:
        return null;
    }
  }
}
