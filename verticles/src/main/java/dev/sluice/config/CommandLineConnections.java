package dev.sluice.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.sql.Driver;
import dev.sluice.sql.tls.ConnectionTls;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --connection ID=URL} (repeatable): a connection without a config file, the way DBHub's
 * {@code --dsn} works. The driver follows from the URL ({@code postgresql://}, {@code mysql://},
 * {@code sqlite:PATH}); every other key takes its default. Relative paths (the SQLite file, TLS
 * certificates) resolve against the working directory, as anything typed on a command line does.
 */
final class CommandLineConnections {

  /** More is a config file's job; the cap keeps a runaway script from building a huge list. */
  static final int MAX = 64;

  private CommandLineConnections() {}

  /** Each spec as a connection mapping, keyed {@code --connection ID} in error messages. */
  static List<ConfigNode> nodes(List<String> specs, Map<String, String> env, Path workingDir) {
    if (specs.size() > MAX) {
      throw new ConfigException("--connection", "at most " + MAX + " connections on the command line (got "
          + specs.size() + "); put them in a config file");
    }
    List<ConfigNode> out = new ArrayList<>();
    for (String spec : specs) {
      int eq = spec.indexOf('=');
      if (eq <= 0 || eq == spec.length() - 1) {
        throw new ConfigException("--connection", "expected ID=URL (e.g. shop=postgresql://analyst@db:5432/shop or "
            + "notes=sqlite:notes.db), got \"" + ConfigLoader.masked(spec) + "\"");
      }
      String id = spec.substring(0, eq).trim();
      String key = "--connection " + id;
      // a quoted ${PASSWORD} reaches us unexpanded, as it would in a config file
      String url = EnvReferences.expand(key, spec.substring(eq + 1).trim(), env);
      ObjectNode c = JsonNodeFactory.instance.objectNode().put("id", id);
      String scheme = url.contains(":") ? url.substring(0, url.indexOf(':')).toLowerCase(Locale.ROOT) : "";
      Driver driver = switch (scheme) {
        case "postgresql", "postgres" -> Driver.POSTGRES;
        case "mysql", "mariadb" -> Driver.MYSQL;
        case "sqlite" -> Driver.SQLITE;
        default -> throw new ConfigException(key, "the URL must start with postgresql://, mysql:// or sqlite:, got \""
            + ConfigLoader.masked(url) + "\"");
      };
      c.put("driver", driver.wireName());
      if (driver == Driver.SQLITE) {
        // sqlite:PATH; sqlite:///abs/path (SQLAlchemy's spelling) works too
        String path = url.substring("sqlite:".length()).replaceFirst("^//", "");
        if (path.isBlank()) {
          throw new ConfigException(key, "sqlite: needs a database file, e.g. sqlite:data/shop.db");
        }
        c.put("path", workingDir.resolve(path).normalize().toString());
      } else {
        try {
          c.put("url", ConnectionTls.resolveFiles(url, driver, workingDir));
        } catch (IllegalArgumentException e) {
          throw new ConfigException(key, e.getMessage());
        }
      }
      out.add(new ConfigNode(key, c, env));
    }
    return out;
  }
}
