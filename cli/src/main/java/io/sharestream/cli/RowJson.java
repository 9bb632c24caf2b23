package io.sharestream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.sharestream.common.types.Row;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Rows as JSON: an object per row, columns in schema order; numbers as JSON numbers (decimals exactly, as written,
 * never in exponent form; NaN and infinities as strings), timestamps ISO-8601 in UTC, dates and local date-times
 * ISO, binary as base64, structs as objects, arrays as arrays, maps as objects keyed by the key's text.
 */
final class RowJson {
  private static final JsonFactory JSON = JsonFactory.builder()
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private RowJson() {}

  /** The row as one line of JSON. */
  static String object(Row row) {
    return write(g -> value(g, row));
  }

  /** A row of a followed table with where it was committed: {@code {"version":v,"index":i,"row":{...}}}. */
  static String record(long version, long index, Row row) {
    return write(g -> {
      g.writeStartObject();
      g.writeNumberField("version", version);
      g.writeNumberField("index", index);
      g.writeFieldName("row");
      value(g, row);
      g.writeEndObject();
    });
  }

  /** The JSON text of one value of a row (nested values in text tables). */
  static String value(Object v) {
    return write(g -> value(g, v));
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static String write(Body body) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  private static void value(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Row) {
      Row r = (Row) v;
      g.writeStartObject();
      for (int i = 0; i < r.size(); i++) {
        g.writeFieldName(r.schema().field(i).name());
        value(g, r.get(i));
      }
      g.writeEndObject();
    } else if (v instanceof List) {
      g.writeStartArray();
      for (Object e : (List<?>) v) {
        value(g, e);
      }
      g.writeEndArray();
    } else if (v instanceof Map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        g.writeFieldName(Values.isNested(e.getKey()) ? value(e.getKey()) : Values.text(e.getKey()));
        value(g, e.getValue());
      }
      g.writeEndObject();
    } else if (v instanceof Boolean) {
      g.writeBoolean((Boolean) v);
    } else if (v instanceof BigDecimal) {
      g.writeNumber((BigDecimal) v);
    } else if (v instanceof Double) {
      g.writeNumber((Double) v);
    } else if (v instanceof Float) {
      g.writeNumber((Float) v);
    } else if (v instanceof Number) {
      g.writeNumber(((Number) v).longValue()); // byte, short, integer, long
    } else {
      g.writeString(Values.text(v));
    }
  }
}
