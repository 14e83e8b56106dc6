package dev.sluice.engine;

import dev.sluice.engine.mysql.MySqlEngine;
import dev.sluice.engine.postgres.PostgresEngine;
import dev.sluice.engine.sqlite.SqliteEngine;
import dev.sluice.sql.Driver;
import java.util.EnumMap;
import java.util.Map;

/** The engines by driver kind. */
public final class Engines {

  private static final Map<Driver, Engine> BY_DRIVER = new EnumMap<>(Driver.class);

  static {
    register(PostgresEngine.INSTANCE);
    register(MySqlEngine.INSTANCE);
    register(SqliteEngine.INSTANCE);
  }

  private Engines() {}

  private static void register(Engine e) {
    BY_DRIVER.put(e.driver(), e);
  }

  public static Engine of(Driver driver) {
    Engine e = BY_DRIVER.get(driver);
    if (e == null) {
      throw new IllegalArgumentException("no engine registered for driver " + driver);
    }
    return e;
  }
}
