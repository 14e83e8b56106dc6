package dev.sluice.sql;

/** SQL dialects the guard and the formatters know; MariaDB parses as MySQL. */
public enum Dialect {
  POSTGRES,
  MYSQL,
  SQLITE;

  public static Dialect of(Driver driver) {
    return switch (driver) {
      case POSTGRES -> POSTGRES;
      case MYSQL -> MYSQL;
      case SQLITE -> SQLITE;
    };
  }
}
