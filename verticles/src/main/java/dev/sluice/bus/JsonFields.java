package dev.sluice.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.impl.JsonUtil;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The map under the small JSON objects built for every call (the audit record, the JSON-RPC
 * answer, the executor's result and progress): keys and values side by side in one array, in the
 * order they were put, looked up by a scan. A {@code JsonObject}'s own LinkedHashMap spends a
 * 40-byte entry per field and a table it doubles at 12 fields; for the per-call objects that was
 * about a sixth of the gateway's allocation per call. {@link JsonBytes} writes these objects
 * without iterating entries. Not for large objects: a lookup is linear in the number of fields.
 */
public final class JsonFields extends AbstractMap<String, Object> {

  private Object[] slots;
  private int size;

  private JsonFields(int fields) {
    slots = new Object[Math.max(2, fields) * 2];
  }

  /** An empty map with room for {@code fields} fields (for a parser building raw maps). */
  static Map<String, Object> map(int fields) {
    return new JsonFields(fields);
  }

  /** An empty JSON object on this map, with room for {@code fields} fields before it grows. */
  public static JsonObject object(int fields) {
    return new JsonObject(new JsonFields(fields));
  }

  /**
   * A deep copy of {@code o} that keeps every object's field order. {@code JsonObject.copy()}
   * keeps it only for a LinkedHashMap and copies any other map, this one included, into a
   * HashMap: an audited argument list or an error's details came out shuffled. Objects on this
   * map are copied onto it; others as {@code copy()} copies them.
   */
  public static JsonObject copy(JsonObject o) {
    return o.getMap() instanceof JsonFields f ? new JsonObject(f.deepCopy()) : o.copy();
  }

  private JsonFields deepCopy() {
    JsonFields out = new JsonFields(size);
    for (int i = 0; i < size; i++) {
      out.slots[2 * i] = slots[2 * i];
      out.slots[2 * i + 1] = copyValue(slots[2 * i + 1]);
    }
    out.size = size;
    return out;
  }

  private static Object copyValue(Object v) {
    if (v instanceof JsonObject o) {
      return copy(o);
    }
    if (v instanceof JsonFields f) {
      return f.deepCopy();
    }
    if (v instanceof JsonArray a) {
      return new JsonArray(copyList(a.getList()));
    }
    if (v instanceof List<?> l) {
      return copyList(l);
    }
    return JsonUtil.deepCopy(v, JsonUtil.DEFAULT_CLONER);
  }

  private static List<Object> copyList(List<?> l) {
    List<Object> out = new ArrayList<>(l.size());
    for (Object x : l) {
      out.add(copyValue(x));
    }
    return out;
  }

  /** The key of field {@code i} (in insertion order). */
  public String key(int i) {
    return (String) slots[2 * i];
  }

  /** The value of field {@code i} (in insertion order). */
  public Object value(int i) {
    return slots[2 * i + 1];
  }

  private int indexOf(Object key) {
    for (int i = 0; i < size; i++) {
      if (Objects.equals(slots[2 * i], key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : slots[2 * i + 1];
  }

  @Override
  public Object put(String key, Object value) {
    int i = indexOf(key);
    if (i >= 0) {
      Object old = slots[2 * i + 1];
      slots[2 * i + 1] = value;
      return old;
    }
    if (2 * size == slots.length) {
      slots = Arrays.copyOf(slots, slots.length * 2);
    }
    slots[2 * size] = key;
    slots[2 * size + 1] = value;
    size++;
    return null;
  }

  @Override
  public Object remove(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : removeAt(i);
  }

  private Object removeAt(int i) {
    Object old = slots[2 * i + 1];
    System.arraycopy(slots, 2 * i + 2, slots, 2 * i, 2 * (size - i - 1));
    size--;
    slots[2 * size] = null;
    slots[2 * size + 1] = null;
    return old;
  }

  @Override
  public void clear() {
    Arrays.fill(slots, 0, 2 * size, null);
    size = 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Object> action) {
    for (int i = 0; i < size; i++) {
      action.accept(key(i), value(i));
    }
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;
          private int last = -1;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (next >= size) {
              throw new NoSuchElementException();
            }
            last = next++;
            return new Field(last);
          }

          @Override
          public void remove() {
            if (last < 0) {
              throw new IllegalStateException();
            }
            removeAt(last);
            next = last;
            last = -1;
          }
        };
      }
    };
  }

  /** A field seen through an entry: setValue writes through, as JsonObject's iterator expects. */
  private final class Field implements Map.Entry<String, Object> {
    private final int index;

    Field(int index) {
      this.index = index;
    }

    @Override
    public String getKey() {
      return key(index);
    }

    @Override
    public Object getValue() {
      return value(index);
    }

    @Override
    public Object setValue(Object value) {
      Object old = slots[2 * index + 1];
      slots[2 * index + 1] = value;
      return old;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e && Objects.equals(getKey(), e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(getKey()) ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return getKey() + "=" + getValue();
    }
  }
}
