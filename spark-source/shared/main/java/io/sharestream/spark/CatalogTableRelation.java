package io.sharestream.spark;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.PrunedFilteredScan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.TaskCompletionListener;

/**
 * A batch read of a catalog table as Spark's DSv1 sees it: each query scans the {@link SharingTable} as a DSv2 read
 * would (its columns, its filters as the server's hints), and the partitions' rows become the relation's RDD.
 */
final class CatalogTableRelation extends BaseRelation implements PrunedFilteredScan {
  private final SQLContext sqlContext;
  private final SharingTable table;

  CatalogTableRelation(SQLContext sqlContext, SharingTable table) {
    this.sqlContext = sqlContext;
    this.table = table;
  }

  @Override
  public SQLContext sqlContext() {
    return sqlContext;
  }

  @Override
  public StructType schema() {
    return table.schema();
  }

  /** The RDD holds Spark's internal rows. */
  @Override
  public boolean needConversion() {
    return false;
  }

  @Override
  @SuppressWarnings("unchecked")
  public RDD<Row> buildScan(String[] requiredColumns, Filter[] filters) {
    ScanBuilder builder = table.newScanBuilder(CaseInsensitiveStringMap.empty());
    StructType columns = new StructType();
    for (String c : requiredColumns) {
      columns = columns.add(table.schema().apply(c));
    }
    ((SupportsPushDownRequiredColumns) builder).pruneColumns(columns);
    ((SupportsPushDownFilters) builder).pushFilters(filters);
    Batch batch = builder.build().toBatch();
    return (RDD<Row>) (RDD<?>) rows(sqlContext, batch.planInputPartitions(), batch.createReaderFactory());
  }

  /** The rows of {@code partitions}, one Spark partition each, read by {@code readers} as rows. */
  static RDD<InternalRow> rows(SQLContext sqlContext, InputPartition[] partitions, PartitionReaderFactory readers) {
    return JavaSparkContext.fromSparkContext(sqlContext.sparkContext())
        .parallelize(Arrays.asList(partitions), Math.max(1, partitions.length))
        .mapPartitions(p -> p.hasNext() ? read(readers.createReader(p.next())) : Collections.<InternalRow>emptyIterator())
        .rdd();
  }

  private static Iterator<InternalRow> read(PartitionReader<InternalRow> reader) {
    TaskContext.get().addTaskCompletionListener((TaskCompletionListener) context -> {
      try {
        reader.close();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    return new Iterator<InternalRow>() {
      private Boolean ready;

      @Override
      public boolean hasNext() {
        if (ready == null) {
          try {
            ready = reader.next();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        return ready;
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ready = null;
        return reader.get();
      }
    };
  }

  @Override
  public String toString() {
    return "DeltaSharing[" + table.name() + "]";
  }
}
