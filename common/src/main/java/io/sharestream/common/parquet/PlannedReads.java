package io.sharestream.common.parquet;

import java.util.List;

/**
 * An input that wants to know which byte ranges a reader will read next (the column chunks of a row group), so it
 * can fetch them with as few requests as possible. {@link ParquetRowReader} announces them before each row group.
 */
public interface PlannedReads {
  /**
   * The ranges {@code [start, end)} the reader reads next, in any order; replaces the previous announcement.
   * {@code oneStream}: read one after the other by one stream (near neighbours are best fetched together);
   * otherwise each by a stream of its own, interleaved (each best fetched alone).
   */
  void willRead(List<long[]> ranges, boolean oneStream);
}
