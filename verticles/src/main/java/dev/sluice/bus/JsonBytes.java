package dev.sluice.bus;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON trees (JsonObject, JsonArray, maps, lists, scalars) encoded straight to UTF-8 bytes by
 * Jackson's streaming generator. Vert.x's own {@code encode()} goes through jackson-databind
 * once it is on the class path (it is: YAML config), which builds a serializer provider per call,
 * writes a String and then copies it to bytes; on the per-call paths (each HTTP answer, each audit
 * record) that was about a tenth of the gateway's allocation; decoding a request through databind
 * likewise sets up a deserialization context per call. A value the streaming encoder does not
 * know (a POJO) falls back to databind.
 */
public final class JsonBytes {

  private static final JacksonCodec STREAMING = new JacksonCodec();
  /** For the kept generators ({@link ReusedGenerator}): values one after another, nothing between them. */
  private static final JsonFactory LINES = new JsonFactory().setRootValueSeparator(null);
  /** Reads as Vert.x's codec reads (it allows comments), with Jackson's default limits. */
  private static final JsonFactory PARSING = JsonFactory.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
  /** Objects up to this many fields are parsed into a {@link JsonFields}. */
  static final int SMALL_OBJECT = 16;

  private JsonBytes() {
  }

  /**
   * The JSON value in {@code json}: a JsonObject, JsonArray, String, Number, Boolean or null, as
   * {@link Json#decodeValue(Buffer)} gives it, parsed by the streaming parser (no databind
   * context per call).
   *
   * @throws io.vertx.core.json.DecodeException when it is not one JSON value
   */
  public static Object decode(Buffer json) {
    ByteBuf bytes = ((BufferInternal) json).getByteBuf();
    if (!bytes.hasArray()) {
      return STREAMING.fromBuffer(json);
    }
    return decode(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
  }

  /**
   * The JSON value in {@code length} bytes of {@code json} from {@code offset}, as
   * {@link #decode(Buffer)} reads it; the array may be reused once this returns.
   *
   * @throws io.vertx.core.json.DecodeException when it is not one JSON value
   */
  public static Object decode(byte[] json, int offset, int length) {
    try (JsonParser p = PARSING.createParser(json, offset, length)) {
      p.nextToken();
      Object value = parse(p);
      if (p.nextToken() != null) {
        throw new DecodeException("Unexpected trailing token");
      }
      return value instanceof Map<?, ?> m ? new JsonObject(cast(m)) : value instanceof List<?> l ? new JsonArray(l) : value;
    } catch (DecodeException e) {
      throw e;
    } catch (IOException e) {
      throw new DecodeException(e.getMessage(), e);
    }
  }

  /**
   * A value as Vert.x's tree parser reads it (maps and lists inside, wrapped when read), except
   * that an object of up to {@link #SMALL_OBJECT} fields is a {@link JsonFields}: a request's
   * objects are small, and a LinkedHashMap per object was most of what parsing one allocated.
   * Larger objects stay LinkedHashMaps, whose look-ups do not grow with their size.
   */
  private static Object parse(JsonParser p) throws IOException {
    switch (p.currentTokenId()) {
      case JsonTokenId.ID_START_OBJECT: {
        Map<String, Object> fields = JsonFields.map(4);
        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
          p.nextToken();
          Object v = parse(p);
          if (fields.size() == SMALL_OBJECT && fields instanceof JsonFields && !fields.containsKey(key)) {
            fields = new LinkedHashMap<>(fields);
          }
          fields.put(key, v);
        }
        return fields;
      }
      case JsonTokenId.ID_START_ARRAY: {
        List<Object> items = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          items.add(parse(p));
        }
        return items;
      }
      case JsonTokenId.ID_STRING:
        return p.getText();
      case JsonTokenId.ID_NUMBER_INT:
      case JsonTokenId.ID_NUMBER_FLOAT:
        return p.getNumberValue();
      case JsonTokenId.ID_TRUE:
        return Boolean.TRUE;
      case JsonTokenId.ID_FALSE:
        return Boolean.FALSE;
      case JsonTokenId.ID_NULL:
        return null;
      default:
        throw new DecodeException("Unexpected token");
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  /**
   * The JSON object in {@code json}, parsed by the streaming parser.
   *
   * @throws io.vertx.core.json.DecodeException when it is not one JSON object
   */
  public static JsonObject object(String json) {
    if (STREAMING.fromString(json) instanceof JsonObject o) {
      return o;
    }
    throw new io.vertx.core.json.DecodeException("not a JSON object");
  }

  /**
   * The JSON of {@code json} in a pooled direct buffer, for an answer written once to a socket:
   * the caller releases it when the write completes. Encoded through one generator per thread (an
   * event loop answers thousands of calls a second), so a call leaves neither a byte array nor a
   * generator behind; Netty writes a direct buffer without copying it first.
   */
  public static ByteBuf pooled(Object json) {
    ByteBuf bytes = ByteBufAllocator.DEFAULT.directBuffer(512);
    try {
      append(json, bytes);
      return bytes;
    } catch (RuntimeException e) {
      bytes.release();
      throw e;
    }
  }

  /**
   * Appends the JSON of {@code json} to {@code out}, through this thread's generator (as
   * {@link #pooled}); on failure {@code out} is left as it was.
   */
  public static void append(Object json, ByteBuf out) {
    POOLED_WRITER.get().write(json, out);
  }

  private static final ThreadLocal<ByteBufWriter> POOLED_WRITER = ThreadLocal.withInitial(ByteBufWriter::new);

  /**
   * One generator kept for value after value (a generator, its context and its buffers were a
   * third of what writing one small value allocated); a value it cannot write (a POJO) is rewound
   * and written by databind instead, and the next value gets a new generator.
   */
  private abstract static class ReusedGenerator {
    private JsonGenerator g;

    /** Where the generator writes. */
    abstract java.io.OutputStream sink();

    /** The output's length now. */
    abstract int mark();

    /** Drops what was written after {@code mark}. */
    abstract void rewind(int mark);

    /** Appends bytes written some other way. */
    abstract void append(byte[] bytes);

    final void writeValue(Object json) {
      int mark = mark();
      try {
        if (g == null) {
          g = LINES.createGenerator(sink(), JsonEncoding.UTF8);
        }
        encode(json, g);
        g.flush();
      } catch (EncodeException | IOException notATree) {
        g = null; // left inside the value it failed on
        rewind(mark);
        if (notATree instanceof IOException io) {
          throw new UncheckedIOException(io);
        }
        append(Json.encodeToBuffer(json).getBytes());
      } catch (RuntimeException e) {
        g = null; // nor may any other failure leave the next value inside this one
        rewind(mark);
        throw e;
      }
    }
  }

  /** A generator over a sink whose target buffer changes per value. */
  private static final class ByteBufWriter extends ReusedGenerator {
    private ByteBuf target;
    private final java.io.OutputStream sink = new java.io.OutputStream() {
      @Override
      public void write(int b) {
        target.writeByte(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        target.writeBytes(b, off, len);
      }
    };

    void write(Object json, ByteBuf into) {
      target = into;
      try {
        writeValue(json);
      } finally {
        target = null;
      }
    }

    @Override
    java.io.OutputStream sink() {
      return sink;
    }

    @Override
    int mark() {
      return target.writerIndex();
    }

    @Override
    void rewind(int mark) {
      target.writerIndex(mark);
    }

    @Override
    void append(byte[] bytes) {
      target.writeBytes(bytes);
    }
  }

  /**
   * Jackson's tree encoder, except that a {@link JsonFields} object is written field by field
   * (the tree encoder would iterate it through entries), at any depth.
   */
  static void encode(Object json, JsonGenerator g) throws IOException {
    Object tree = json instanceof JsonObject o ? o.getMap() : json instanceof JsonArray a ? a.getList() : json;
    if (tree instanceof JsonFields fields) {
      g.writeStartObject();
      for (int i = 0; i < fields.size(); i++) {
        g.writeFieldName(fields.key(i));
        encode(fields.value(i), g);
      }
      g.writeEndObject();
    } else if (tree instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        encode(e.getValue(), g);
      }
      g.writeEndObject();
    } else if (tree instanceof List<?> list) {
      g.writeStartArray();
      if (list instanceof java.util.RandomAccess) {
        for (int i = 0; i < list.size(); i++) {
          encode(list.get(i), g);
        }
      } else {
        for (Object item : list) {
          encode(item, g);
        }
      }
      g.writeEndArray();
    } else if (!writeCommonScalar(tree, g)) {
      JacksonCodec.encodeJson(tree, g);
    }
  }

  /**
   * Writes {@code v} if it is null, a String, an Integer, a Long or a Boolean, as Vert.x and
   * databind would, and says whether it did. Vert.x's codec tries a dozen types in turn, and a
   * call's events and log lines are mostly strings and small numbers.
   */
  public static boolean writeCommonScalar(Object v, JsonGenerator g) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Integer i) {
      g.writeNumber(i);
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else {
      return false;
    }
    return true;
  }

  /**
   * Writes values one after another into one stream through one generator (for a thread that
   * writes many: the audit writer), instead of a generator per value: the generator, its context
   * and its buffers were a third of what writing one audit record allocated. Not thread-safe.
   */
  public static final class Writer extends ReusedGenerator {
    private ByteArrayOutputStream out;
    /** Forwards to {@link #out}: the generator is made once, the stream it fills may change. */
    private final java.io.OutputStream sink = new java.io.OutputStream() {
      @Override
      public void write(int b) {
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        out.write(b, off, len);
      }
    };

    public Writer(ByteArrayOutputStream out) {
      this.out = out;
    }

    /** Appends the JSON of {@code json} to the stream, as {@link JsonBytes#write} does. */
    public void write(Object json) {
      writeValue(json);
    }

    /** Appends the JSON of {@code json} to {@code into} (this thread's writer, for {@link JsonBytes#write}). */
    private void write(Object json, ByteArrayOutputStream into) {
      out = into;
      try {
        writeValue(json);
      } finally {
        out = null;
      }
    }

    @Override
    java.io.OutputStream sink() {
      return sink;
    }

    @Override
    int mark() {
      return out.size();
    }

    @Override
    void rewind(int mark) {
      byte[] kept = java.util.Arrays.copyOf(out.toByteArray(), mark);
      out.reset();
      out.writeBytes(kept);
    }

    @Override
    void append(byte[] bytes) {
      out.writeBytes(bytes);
    }
  }

  private static final ThreadLocal<Writer> STREAM_WRITER = ThreadLocal.withInitial(() -> new Writer(null));

  /**
   * Appends the JSON of {@code json} to {@code out} (which the caller resets between values),
   * through this thread's kept generator: the per-call writers (a SQLite job line, a call's
   * logged arguments) made a generator each time.
   */
  public static void write(Object json, ByteArrayOutputStream out) {
    STREAM_WRITER.get().write(json, out);
  }

}
