package io.sharestream.common.parquet;

import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.types.SchemaJson;
import io.sharestream.common.types.StructType;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Opens one local Parquet file {@code n} times, reads one row of each, and prints the heap the open readers hold
 * between them ({@link OpenFileMemoryTest} runs it in a JVM of its own, so that nothing else shares the heap).
 *
 * <p>Arguments: the file, its table's schema (JSON), {@code n}.
 */
public final class OpenFileHeapProbe {
  private static final Configuration CONF = new Configuration();

  private OpenFileHeapProbe() {}

  public static void main(String[] args) throws Exception {
    StructType schema = SchemaJson.parse(args[1]);
    int n = Integer.parseInt(args[2]);
    List<ParquetRowReader> open = new ArrayList<>();
    open(args[0], schema).close(); // classes and shared configuration loaded before the count
    long before = usedAfterCollections();
    for (int i = 0; i < n; i++) {
      open.add(open(args[0], schema));
    }
    long held = usedAfterCollections() - before;
    System.out.println("heldPerFile=" + held / n + " open=" + open.size());
  }

  private static ParquetRowReader open(String file, StructType schema) throws Exception {
    ParquetRowReader r = ParquetRowReader.open(HadoopInputFile.fromPath(new Path(file), CONF), "f", schema,
        List.of(), Map.of(), ReadSettings.DEFAULT, 0, RowSelection.ALL);
    r.next();
    return r;
  }

  private static long usedAfterCollections() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
