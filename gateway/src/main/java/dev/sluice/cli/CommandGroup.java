package dev.sluice.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands ({@code sluice audit query}): alone it is a usage mistake. */
abstract class CommandGroup implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    System.err.println("sluice: " + spec.name() + " needs a subcommand: "
        + String.join(", ", spec.subcommands().keySet().stream().filter(k -> !k.equals("help")).toList()));
    return SluiceCommand.EXIT_USAGE;
  }
}
