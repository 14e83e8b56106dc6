package dev.sluice.loadtest;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a plain, non-sticky load balancer in front of several nodes does: each request goes to a
 * random node, and a node whose connections fail is taken out of rotation (as a health check
 * would). With one URL every request goes there.
 */
final class Routes {

  private final List<String> urls;
  private final Set<String> down = ConcurrentHashMap.newKeySet();

  Routes(List<String> urls) {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no URL to route to");
    }
    this.urls = List.copyOf(urls);
  }

  static Routes of(String commaSeparated) {
    return new Routes(List.of(commaSeparated.split(",")));
  }

  String pick() {
    if (urls.size() == 1) {
      return urls.get(0);
    }
    List<String> live = urls.stream().filter(u -> !down.contains(u)).toList();
    List<String> from = live.isEmpty() ? urls : live;
    return from.get(ThreadLocalRandom.current().nextInt(from.size()));
  }

  void markDown(String url) {
    if (urls.size() > 1) {
      down.add(url);
    }
  }

  List<String> urls() {
    return urls;
  }

  boolean clustered() {
    return urls.size() > 1;
  }
}
