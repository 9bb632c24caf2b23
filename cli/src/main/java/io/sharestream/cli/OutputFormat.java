package io.sharestream.cli;

import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * How rows are printed: JSON lines as they are read, or an aligned text table once all are read. A closed output
 * ends the reading ({@link OutputClosed}).
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
      TextTable table = new TextTable(columns.fieldNames());
      return new Rows() {
        @Override
        public void add(Row row) {
          List<String> cells = new ArrayList<>();
          for (int i = 0; i < row.size(); i++) {
            cells.add(Values.text(row.get(i)));
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

  /** Where rows of {@code columns} go; {@link Rows#end()} prints what is left. */
  abstract Rows open(PrintWriter out, StructType columns);

  /** Rows being printed. */
  interface Rows {
    void add(Row row);

    void end();
  }
}
