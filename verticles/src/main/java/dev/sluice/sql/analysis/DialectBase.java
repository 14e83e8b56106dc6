package dev.sluice.sql.analysis;

import dev.sluice.sql.guard.FunctionRules;

/**
 * What every engine's dialect has alike: its name, its lexer rules, and the {@code functions.txt}
 * allow-list that sits beside its class.
 */
public abstract class DialectBase implements SqlDialect {

  private final String name;
  private final LexRules lex;
  private final FunctionRules functions;

  protected DialectBase(String name, LexRules lex) {
    this.name = name;
    this.lex = lex;
    this.functions = FunctionRules.load(getClass());
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final LexRules lexRules() {
    return lex;
  }

  @Override
  public final FunctionRules functions() {
    return functions;
  }
}
