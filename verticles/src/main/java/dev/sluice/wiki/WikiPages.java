package dev.sluice.wiki;

import java.util.List;

/** Read side of the wiki: what discovery indexes and the wiki tools serve. */
public interface WikiPages {

  /** Every page currently stored, in key order. */
  List<WikiPage> all();

  /** Changes whenever a page is added, edited or removed; caches key on it. */
  String version();
}
