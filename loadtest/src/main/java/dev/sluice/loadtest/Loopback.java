package dev.sluice.loadtest;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/** The load generator only ever talks to this machine: every target URL must be loopback. */
final class Loopback {

  private Loopback() {}

  /** Throws IllegalArgumentException unless {@code url}'s host is 127.0.0.0/8, ::1 or localhost. */
  static URI require(String url) {
    URI uri = URI.create(url);
    String host = uri.getHost();
    if (host == null) {
      throw new IllegalArgumentException("no host in " + url);
    }
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if (!isLoopback(bare)) {
      throw new IllegalArgumentException("refusing non-loopback target " + host
          + " (only 127.0.0.0/8, ::1 and localhost are allowed)");
    }
    return uri;
  }

  static boolean isLoopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    // only literal addresses: resolving a name could leave the machine
    if (!host.matches("[0-9.]+") && !host.contains(":")) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
