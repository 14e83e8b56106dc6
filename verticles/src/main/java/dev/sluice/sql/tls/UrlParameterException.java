package dev.sluice.sql.tls;

/** A connection URL's query parameter that cannot be used; names the parameter for the config error. */
public final class UrlParameterException extends IllegalArgumentException {

  private final String parameter;

  public UrlParameterException(String parameter, String message) {
    super(message);
    this.parameter = parameter;
  }

  /** The parameter as written in the URL. */
  public String parameter() {
    return parameter;
  }
}
