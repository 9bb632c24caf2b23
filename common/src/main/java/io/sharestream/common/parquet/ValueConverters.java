package io.sharestream.common.parquet;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.GeoType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Parquet converters that assemble {@link Row} values directly, typed by the Delta schema. Written against
 * Parquet 1.10.1's converter API (Spark 3.1) and run unchanged on 1.15. Handles the list layouts of the Parquet
 * spec's backward-compatibility rules (3-level, 2-level, legacy {@code array}/{@code _tuple}), maps, INT96 and
 * INT64 timestamps, and decimals stored as INT32, INT64, BINARY or FIXED_LEN_BYTE_ARRAY.
 */
final class ValueConverters {
  private ValueConverters() {}

  /**
   * A converter for one value of Delta type {@code type} stored as Parquet {@code parquet}, handing it to
   * {@code sink}; old dates and timestamps go through the file's {@code calendar}.
   */
  static Converter of(DataType type, Type parquet, String path, CalendarRebase calendar, Consumer<Object> sink) {
    if (type instanceof StructType) {
      requireGroup(parquet, path);
      return new StructConverter((StructType) type, parquet.asGroupType(), path, calendar, sink);
    }
    if (type instanceof ArrayType) {
      requireGroup(parquet, path);
      return new ListConverter((ArrayType) type, parquet.asGroupType(), path, calendar, sink);
    }
    if (type instanceof MapType) {
      requireGroup(parquet, path);
      return new MapConverter((MapType) type, parquet.asGroupType(), path, calendar, sink);
    }
    if (type == PrimitiveType.VARIANT) {
      return !parquet.isPrimitive() && parquet.asGroupType().containsField("typed_value")
          ? new ShreddedVariantConverter(parquet.asGroupType(), path, calendar.file(), sink)
          : new VariantConverter(parquet, path, calendar.file(), sink);
    }
    if (!parquet.isPrimitive()) {
      throw new IllegalArgumentException("column '" + path + "' is a group in the Parquet file but "
          + type.simpleString() + " in the table schema");
    }
    return primitive(type, parquet.asPrimitiveType(), path, calendar, sink);
  }

  private static void requireGroup(Type parquet, String path) {
    if (parquet.isPrimitive()) {
      throw new IllegalArgumentException("column '" + path + "' is a primitive in the Parquet file but nested in "
          + "the table schema");
    }
  }

  private static Converter primitive(DataType type, org.apache.parquet.schema.PrimitiveType p, String path,
      CalendarRebase calendar, Consumer<Object> sink) {
    PrimitiveTypeName physical = p.getPrimitiveTypeName();
    if (type instanceof GeoType) { // its WKB, as stored
      if (physical != PrimitiveTypeName.BINARY) {
        throw new IllegalArgumentException("column '" + path + "' is " + type.simpleString() + " in the table schema "
            + "but a Parquet " + physical + ", not the binary that holds its WKB");
      }
      return new DictionaryAware<>(sink, Binary::getBytes);
    }
    if (type instanceof DecimalType) {
      int scale = ((DecimalType) type).scale();
      // an integer file column (int or long widened to decimal) has scale 0, not the table's
      int fileScale = p.getOriginalType() == OriginalType.DECIMAL ? p.getDecimalMetadata().getScale() : 0;
      return new PrimitiveConverter() {
        private BigDecimal fix(BigDecimal d) {
          return d.scale() == scale ? d : d.setScale(scale, RoundingMode.UNNECESSARY);
        }

        @Override
        public void addInt(int v) {
          sink.accept(fix(BigDecimal.valueOf(v, fileScale)));
        }

        @Override
        public void addLong(long v) {
          sink.accept(fix(BigDecimal.valueOf(v, fileScale)));
        }

        @Override
        public void addBinary(Binary v) {
          sink.accept(fix(new BigDecimal(new BigInteger(v.getBytes()), fileScale)));
        }
      };
    }
    switch ((PrimitiveType) type) {
      case BOOLEAN:
        return new PrimitiveConverter() {
          @Override
          public void addBoolean(boolean v) {
            sink.accept(v);
          }
        };
      case BYTE:
        return ints(v -> sink.accept((byte) v));
      case SHORT:
        return ints(v -> sink.accept((short) v));
      case INTEGER:
        return ints(sink::accept);
      case DATE:
        return ints(v -> sink.accept(LocalDate.ofEpochDay(calendar.days(v, path))));
      case LONG:
        return new PrimitiveConverter() {
          @Override
          public void addLong(long v) {
            sink.accept(v);
          }

          @Override
          public void addInt(int v) {
            sink.accept((long) v);
          }
        };
      case FLOAT:
        return new PrimitiveConverter() {
          @Override
          public void addFloat(float v) {
            sink.accept(v);
          }
        };
      case DOUBLE:
        return new PrimitiveConverter() {
          @Override
          public void addDouble(double v) {
            sink.accept(v);
          }

          @Override
          public void addFloat(float v) {
            sink.accept((double) v);
          }

          @Override
          public void addInt(int v) { // byte, short or int widened to double
            sink.accept((double) v);
          }
        };
      case STRING:
        return new DictionaryAware<>(sink, Binary::toStringUsingUTF8);
      case BINARY:
        return new DictionaryAware<>(sink, Binary::getBytes);
      case TIMESTAMP:
      case TIMESTAMP_NTZ: {
        boolean ntz = type == PrimitiveType.TIMESTAMP_NTZ;
        if (ntz && physical == PrimitiveTypeName.INT32 && p.getOriginalType() == OriginalType.DATE) {
          // date widened to timestamp_ntz: midnight of the (rebased) day
          return ints(v -> sink.accept(LocalDate.ofEpochDay(calendar.days(v, path)).atStartOfDay()));
        }
        if (physical == PrimitiveTypeName.INT96) {
          return new DictionaryAware<Object>(sink,
              b -> timestamp(calendar.int96Micros(int96Micros(b), path), ntz));
        }
        boolean millis = p.getOriginalType() == OriginalType.TIMESTAMP_MILLIS;
        return new PrimitiveConverter() {
          @Override
          public void addLong(long v) {
            sink.accept(timestamp(calendar.micros(millis ? Math.multiplyExact(v, 1000L) : v, path), ntz));
          }
        };
      }
      default:
        throw new IllegalArgumentException("unsupported type " + type.simpleString() + " for column '" + path + "'");
    }
  }

  private interface IntSink {
    void accept(int v);
  }

  private static PrimitiveConverter ints(IntSink sink) {
    return new PrimitiveConverter() {
      @Override
      public void addInt(int v) {
        sink.accept(v);
      }
    };
  }

  /** Micros since the epoch of an INT96 value (nanos of the day, then the Julian day number, little-endian). */
  static long int96Micros(Binary b) {
    ByteBuffer buf = b.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = buf.getLong();
    return CalendarRebase.int96ToMicros(buf.getInt(), nanosOfDay);
  }

  /** A timestamp value from micros since the epoch: an instant, or the UTC wall time for timestamp_ntz. */
  private static Object timestamp(long micros, boolean ntz) {
    Instant t = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    return ntz ? LocalDateTime.ofInstant(t, ZoneOffset.UTC) : t;
  }

  /**
   * Binary-backed values. A small dictionary's entries are decoded once each, up front, and shared by the rows that
   * use them; a large one's ({@link #DECODED_AHEAD} entries or more: mostly distinct values) as rows use them, so
   * that a file read over several polls does not hold every value of its dictionary decoded beside its pages.
   * Entries come from Parquet's dictionary, or from the page's own bytes when {@link RowGroupPages} hands them over
   * (Parquet's dictionary of a byte-valued column makes an object per entry).
   */
  static final class DictionaryAware<T> extends PrimitiveConverter {
    static final int DECODED_AHEAD = 1024;
    private final Consumer<Object> sink;
    private final java.util.function.Function<Binary, T> decode;
    private DictionaryEntries handed;
    private Object[] decoded;
    private IntFunction<Binary> entries;

    DictionaryAware(Consumer<Object> sink, java.util.function.Function<Binary, T> decode) {
      this.sink = sink;
      this.decode = decode;
    }

    /**
     * The entries of the dictionary page that the column reader being made has just read ({@link RowGroupPages}):
     * the reader's {@link #setDictionary} call that follows takes them instead of Parquet's (empty) dictionary.
     */
    void handOver(DictionaryEntries e) {
      handed = e;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary d) {
      DictionaryEntries own = handed;
      handed = null;
      int size = own != null ? own.size() : d.getMaxId() + 1;
      IntFunction<Binary> entry = own != null ? own::get : d::decodeToBinary;
      entries = null;
      decoded = null;
      if (size >= DECODED_AHEAD) {
        entries = entry;
        return;
      }
      decoded = new Object[size];
      for (int i = 0; i < size; i++) {
        decoded[i] = decode.apply(entry.apply(i));
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      Object v = decoded != null ? decoded[id] : decode.apply(entries.apply(id));
      sink.accept(v instanceof byte[] ? ((byte[]) v).clone() : v);
    }

    @Override
    public void addBinary(Binary v) {
      sink.accept(decode.apply(v));
    }
  }

  /**
   * The converters of {@code schema}'s byte-valued columns (BINARY, FIXED_LEN_BYTE_ARRAY, INT96) that read their
   * dictionary entries themselves ({@link DictionaryAware#handOver}), found from {@code root} as Parquet's column
   * readers find theirs.
   */
  static Map<ColumnPath, DictionaryAware<?>> dictionaryReaders(MessageType schema, GroupConverter root) {
    Map<ColumnPath, DictionaryAware<?>> out = new HashMap<>();
    for (ColumnDescriptor column : schema.getColumns()) {
      if (!DictionaryEntries.covers(column.getPrimitiveType().getPrimitiveTypeName())) {
        continue;
      }
      Type type = schema;
      Converter converter = root;
      for (String name : column.getPath()) {
        GroupType group = type.asGroupType();
        int i = group.getFieldIndex(name);
        type = group.getType(i);
        converter = converter.asGroupConverter().getConverter(i);
      }
      if (converter instanceof DictionaryAware) {
        out.put(ColumnPath.get(column.getPath()), (DictionaryAware<?>) converter);
      }
    }
    return out;
  }

  /**
   * A struct: fields matched to the Delta struct by name (by column id or physical name under column mapping);
   * fields absent from the file stay null.
   */
  static class StructConverter extends GroupConverter {
    private final StructType type;
    private final Converter[] children;
    private final Consumer<Object> sink;
    Object[] values;

    StructConverter(StructType type, GroupType parquet, String path, CalendarRebase calendar, Consumer<Object> sink) {
      this.type = type;
      this.sink = sink;
      this.children = new Converter[parquet.getFieldCount()];
      for (int i = 0; i < parquet.getFieldCount(); i++) {
        Type pf = parquet.getType(i);
        int target = indexOf(type, pf);
        String childPath = path.isEmpty() ? pf.getName() : path + "." + pf.getName();
        if (target < 0) {
          children[i] = ignoring(pf);
        } else {
          StructField f = type.field(target);
          children[i] = of(f.type(), pf, childPath, calendar, v -> values[target] = v);
        }
      }
    }

    @Override
    public Converter getConverter(int i) {
      return children[i];
    }

    @Override
    public void start() {
      values = new Object[type.size()];
    }

    @Override
    public void end() {
      sink.accept(new Row(type, values));
    }
  }

  /**
   * The position of the field file column {@code column} holds: for a column-mapped struct by column id or physical
   * name ({@link ColumnMapping#matches}), else by exact name, else case-insensitively (writers may fold case).
   */
  static int indexOf(StructType type, Type column) {
    String name = column.getName();
    if (ColumnMapping.isMapped(type)) {
      Integer id = column.getId() == null ? null : column.getId().intValue();
      for (int j = 0; j < type.size(); j++) {
        if (ColumnMapping.matches(type.field(j), name, id)) {
          return j;
        }
      }
      return -1;
    }
    int i = type.indexOf(name);
    if (i >= 0) {
      return i;
    }
    for (int j = 0; j < type.size(); j++) {
      if (type.field(j).name().equalsIgnoreCase(name)) {
        return j;
      }
    }
    return -1;
  }

  /** A converter that drops a column the reader did not ask for. */
  static Converter ignoring(Type t) {
    if (t.isPrimitive()) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary v) {}

        @Override
        public void addBoolean(boolean v) {}

        @Override
        public void addDouble(double v) {}

        @Override
        public void addFloat(float v) {}

        @Override
        public void addInt(int v) {}

        @Override
        public void addLong(long v) {}
      };
    }
    GroupType g = t.asGroupType();
    Converter[] children = new Converter[g.getFieldCount()];
    for (int i = 0; i < children.length; i++) {
      children[i] = ignoring(g.getType(i));
    }
    return new GroupConverter() {
      @Override
      public Converter getConverter(int i) {
        return children[i];
      }

      @Override
      public void start() {}

      @Override
      public void end() {}
    };
  }

  /** A list in any of the Parquet spec's layouts. */
  private static final class ListConverter extends GroupConverter {
    private final Consumer<Object> sink;
    private final Converter repeated;
    private final Object[] pending = new Object[1];
    private List<Object> list;

    ListConverter(ArrayType type, GroupType parquet, String path, CalendarRebase calendar, Consumer<Object> sink) {
      this.sink = sink;
      Type rep = parquet.getType(0);
      if (parquet.getOriginalType() != OriginalType.LIST && rep.isRepetition(Type.Repetition.REPEATED)
          && parquet.getFieldCount() == 1 && rep.isPrimitive()) {
        // an unannotated repeated primitive: each value is an element
        repeated = of(type.elementType(), rep, path + ".element", calendar, v -> list.add(v));
      } else if (isElementItself(rep, parquet.getName())) {
        repeated = of(type.elementType(), rep, path + ".element", calendar, v -> list.add(v));
      } else {
        GroupType wrapper = rep.asGroupType();
        Converter element = of(type.elementType(), wrapper.getType(0), path + ".element", calendar,
            v -> pending[0] = v);
        repeated = new GroupConverter() {
          @Override
          public Converter getConverter(int i) {
            return element;
          }

          @Override
          public void start() {
            pending[0] = null;
          }

          @Override
          public void end() {
            list.add(pending[0]);
          }
        };
      }
    }

    /** Parquet's backward-compatibility rules: when the repeated field is the element rather than a wrapper. */
    private static boolean isElementItself(Type rep, String listName) {
      if (rep.isPrimitive()) {
        return true;
      }
      GroupType g = rep.asGroupType();
      return g.getFieldCount() > 1 || g.getName().equals("array") || g.getName().equals(listName + "_tuple");
    }

    @Override
    public Converter getConverter(int i) {
      return repeated;
    }

    @Override
    public void start() {
      list = new ArrayList<>();
    }

    @Override
    public void end() {
      sink.accept(list);
    }
  }

  /** A map: a repeated key/value group. */
  private static final class MapConverter extends GroupConverter {
    private final Consumer<Object> sink;
    private final GroupConverter entries;
    private Map<Object, Object> map;
    private Object key;
    private Object value;

    MapConverter(MapType type, GroupType parquet, String path, CalendarRebase calendar, Consumer<Object> sink) {
      this.sink = sink;
      GroupType kv = parquet.getType(0).asGroupType();
      Converter k = of(type.keyType(), kv.getType(0), path + ".key", calendar, v -> key = v);
      Converter v = kv.getFieldCount() > 1
          ? of(type.valueType(), kv.getType(1), path + ".value", calendar, x -> value = x) : null;
      entries = new GroupConverter() {
        @Override
        public Converter getConverter(int i) {
          return i == 0 ? k : v;
        }

        @Override
        public void start() {
          key = null;
          value = null;
        }

        @Override
        public void end() {
          map.put(key, value);
        }
      };
    }

    @Override
    public Converter getConverter(int i) {
      return entries;
    }

    @Override
    public void start() {
      map = new LinkedHashMap<>();
    }

    @Override
    public void end() {
      sink.accept(map);
    }
  }
}
