package dev.sluice.cli;

import dev.sluice.config.Tokens;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice token new <principal>}: a fresh bearer token and the line to paste into the config. */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Bearer tokens for principals.",
    subcommands = {TokenCommand.New.class})
final class TokenCommand extends CommandGroup {

  @Command(name = "new", mixinStandardHelpOptions = true,
      description = "Print a new random token (give it to the principal's agents) and its sha256 line "
          + "(paste it under the principal's tokens:). Only the hash belongs in the config.")
  static final class New implements Callable<Integer> {

    @Parameters(paramLabel = "PRINCIPAL", description = "the principal's name, as in the config")
    String principal;

    @Override
    public Integer call() {
      if (!principal.matches("[A-Za-z0-9_-]{1,64}") || principal.equals("default")) {
        System.err.println("sluice: principal names are 1-64 letters, digits, '_' or '-' (and not \"default\")");
        return SluiceCommand.EXIT_USAGE;
      }
      String token = Tokens.newToken();
      System.out.println("token (give to " + principal + "'s agents; shown once): " + token);
      System.out.println("config line (under principals: - name: " + principal + " / tokens:):");
      System.out.println("  - sha256:" + Tokens.sha256Hex(token));
      return 0;
    }
  }
}
