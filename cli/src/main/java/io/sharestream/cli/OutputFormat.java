package io.sharestream.cli;

import io.sharestream.common.types.DataType;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * How rows are printed: JSON lines as they are read (so {@code head} and {@code changes} stream), or an aligned text
 * table once all are read (numbers right-aligned, nulls as {@value #NULL}). A closed output ends the reading
 * ({@link OutputClosed}).
 */
enum OutputFormat {
  JSON {
    @Override
    Rows open(PrintWriter out, StructType columns) {
      return new Rows() {
        @Override
        public void add(Row row) {
          out.println(RowJson.object(row));
          OutputClosed.check(out);
        }

        @Override
        public void end() {
          out.flush();
        }
      };
    }
  },
  TABLE {
    @Override
    Rows open(PrintWriter out, StructType columns) {
      boolean[] numbers = new boolean[columns.size()];
      for (int i = 0; i < numbers.length; i++) {
        DataType t = columns.field(i).type();
        numbers[i] = t instanceof DecimalType || NUMBERS.contains(t);
      }
      TextTable table = new TextTable(columns.fieldNames(), numbers);
      return new Rows() {
        @Override
        public void add(Row row) {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < row.size(); i++) {
            cells.add(row.get(i) == null ? NULL : Values.text(row.get(i)));
          }
          table.add(cells);
        }

        @Override
        public void end() {
          table.print(out);
          OutputClosed.check(out);
        }
      };
    }
  };

  /** How the table shows a null (the string "null" shows as null). */
  static final String NULL = "NULL";
  private static final Set<PrimitiveType> NUMBERS = EnumSet.of(PrimitiveType.BYTE, PrimitiveType.SHORT,
      PrimitiveType.INTEGER, PrimitiveType.LONG, PrimitiveType.FLOAT, PrimitiveType.DOUBLE);

  /** Where rows of {@code columns} go; {@link Rows#end()} prints what is left. */
  abstract Rows open(PrintWriter out, StructType columns);

  /** Rows being printed. */
  interface Rows {
    void add(Row row);

    void end();
  }
}
