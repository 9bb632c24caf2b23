package io.sharestream.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * An aligned text table: a header, a rule of dashes, then the rows; columns two spaces apart, numbers right-aligned,
 * lines without trailing blanks. Line breaks and tabs inside cells show as {@code \n}, {@code \r}, {@code \t}. It
 * is printed once every row is in (column widths need them all).
 */
final class TextTable {
  private final List<String> header;
  private final boolean[] rightAligned;
  private final List<List<String>> rows = new ArrayList<>();

  TextTable(List<String> header) {
    this(header, new boolean[header.size()]);
  }

  /** {@code rightAligned[i]}: whether column i holds numbers. */
  TextTable(List<String> header, boolean[] rightAligned) {
    this.header = List.copyOf(header);
    this.rightAligned = rightAligned.clone();
  }

  void add(List<String> cells) {
    if (cells.size() != header.size()) {
      throw new IllegalArgumentException(cells.size() + " cells for " + header.size() + " columns");
    }
    List<String> escaped = new ArrayList<>();
    for (String c : cells) {
      escaped.add(c.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"));
    }
    rows.add(escaped);
  }

  void print(PrintWriter out) {
    int[] widths = new int[header.size()];
    List<String> rule = new ArrayList<>();
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
      rule.add("-".repeat(widths[i]));
    }
    line(out, header, widths);
    line(out, rule, widths);
    rows.forEach(r -> line(out, r, widths));
    out.flush();
  }

  private void line(PrintWriter out, List<String> cells, int[] widths) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String pad = " ".repeat(widths[i] - cells.get(i).length());
      b.append(i == 0 ? "" : "  ");
      b.append(rightAligned[i] ? pad + cells.get(i) : cells.get(i) + pad);
    }
    out.println(b.toString().stripTrailing());
  }
}
