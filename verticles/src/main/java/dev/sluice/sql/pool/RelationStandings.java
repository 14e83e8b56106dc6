package dev.sluice.sql.pool;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Relation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What an engine's catalog said of the relations reads name: whether reading one runs nothing
 * but the read (a plain table, where a view may call any function). An adapter leaves the session
 * reset out after a read whose every relation stands so; it learns a name's standing in the same
 * flight as the reset that read gets anyway, so a look-up costs no round trip. An answer is kept
 * for {@link #TTL_MS}: a table replaced by a view is noticed within it, and until then its reads
 * go without a reset, which the guard's allow-list still bounds. A neutral answer read in the
 * last {@link #KEEP_FRESH_MS} is asked again after {@link #REFRESH_AFTER_MS}, off the reads' path
 * ({@link #dueForRefresh}, on the adapter's timer), so it does not expire under reads that come
 * and go: when it expired, every read in flight took the reset and the look-up, and the first
 * time they did in a gateway's life threw away the compiled code of the reads' path (seconds of
 * JIT time recompiling it, measured under load).
 *
 * <p>Only names that read the same quoted and unquoted are kept (lower-case letters, digits,
 * underscores): the analysis decodes names, and the catalog must resolve exactly the relation the
 * statement read; such a name is also safe as a literal in look-up text. Answers arrive on the
 * connections' event loops, which need not be the executor's, so it locks (uncontended: a map
 * look-up per relation).
 *
 * <p>An engine's subclass says which statements are candidates at all: what the statement itself
 * may run, whatever it reads.
 */
public class RelationStandings {

  public static final long TTL_MS = 60_000;
  /** A neutral answer this old is asked again ahead of its expiry... */
  public static final long REFRESH_AFTER_MS = 45_000;
  /** ...if a read used it this recently. */
  public static final long KEEP_FRESH_MS = 10 * 60_000;
  static final int MAX_NAMES = 4_096;

  /** An answer, when it was given, and when a read last found it neutral (guarded by the lock). */
  private static final class Known {
    final boolean neutral;
    final long at;
    long usedAt;

    Known(boolean neutral, long at, long usedAt) {
      this.neutral = neutral;
      this.at = at;
      this.usedAt = usedAt;
    }
  }

  private final Map<String, Known> names = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
      return size() > MAX_NAMES;
    }
  };
  private final Predicate<AnalysedStatement> candidate;
  /** Keys whose look-up ahead of expiry is on its way: one at a time per key. */
  private final Set<String> refreshing = new HashSet<>();

  /** @param candidate whether a statement can be neutral at all, its relations aside (false for null) */
  protected RelationStandings(Predicate<AnalysedStatement> candidate) {
    this.candidate = a -> a != null && candidate.test(a);
  }

  /** True when {@code a} needs no session reset after it: a candidate whose relations all stand neutral. */
  public boolean neutral(AnalysedStatement a, long nowMs) {
    return candidate.test(a) && allNeutral(a.relations(), nowMs);
  }

  /** The keys of {@code a}'s relations to look up now (their standing is unknown or old). */
  public List<String> toLookUp(AnalysedStatement a, long nowMs) {
    return candidate.test(a) ? toLookUp(a.relations(), nowMs) : List.of();
  }

  /** True when the catalog lately showed every one of {@code relations} to be a plain table. */
  synchronized boolean allNeutral(List<Relation> relations, long nowMs) {
    for (Relation r : relations) {
      Known k = names.get(key(r));
      if (k == null || !k.neutral || nowMs - k.at > TTL_MS) {
        return false;
      }
      k.usedAt = nowMs;
    }
    return true;
  }

  /** The keys of {@code relations} whose standing is unknown or old, each once. */
  synchronized List<String> toLookUp(List<Relation> relations, long nowMs) {
    List<String> out = new ArrayList<>();
    for (Relation r : relations) {
      String key = key(r);
      Known k = names.get(key);
      if ((k == null || nowMs - k.at > TTL_MS) && !out.contains(key)) {
        out.add(key);
      }
    }
    return out;
  }

  /**
   * Up to {@code max} keys whose neutral answer is older than {@link #REFRESH_AFTER_MS} and was
   * used by a read in the last {@link #KEEP_FRESH_MS}, each claimed for one look-up until
   * {@link #learned} or {@link #notLearned}. At most {@link #MAX_NAMES} to walk, every few seconds.
   */
  public synchronized List<String> dueForRefresh(long nowMs, int max) {
    List<String> out = List.of();
    for (Map.Entry<String, Known> e : names.entrySet()) {
      if (out.size() == max) {
        break;
      }
      Known k = e.getValue();
      if (k.neutral && nowMs - k.at > REFRESH_AFTER_MS && nowMs - k.usedAt <= KEEP_FRESH_MS
          && refreshing.add(e.getKey())) {
        if (out.isEmpty()) {
          out = new ArrayList<>();
        }
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** What the catalog said of {@code key} (null: no such relation, which is not neutral). */
  public synchronized void learned(String key, Boolean neutral, long nowMs) {
    Known before = names.get(key);
    // a refresh keeps when the answer was last used: a name no read wants stops being asked
    names.put(key, new Known(Boolean.TRUE.equals(neutral), nowMs, before == null ? nowMs : before.usedAt));
    refreshing.remove(key);
  }

  /** A look-up ahead of expiry that got no answer: the standing stays until its TTL, and the next round asks again. */
  public synchronized void notLearned(String key) {
    refreshing.remove(key);
  }

  /** True when none of {@code relations} is a table function and each has plain names only. */
  public static boolean plainNames(List<Relation> relations) {
    for (Relation r : relations) {
      if (r.function() || !plainName(r.name()) || r.schema() != null && !plainName(r.schema())) {
        return false;
      }
    }
    return true;
  }

  /** [a-z_][a-z0-9_]*, without a regex matcher per name per call. */
  static boolean plainName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  /** {@code schema.name}, or the bare name: what {@link #toLookUp} returns and {@link #learned} takes. */
  private static String key(Relation r) {
    return r.qualified();
  }
}
