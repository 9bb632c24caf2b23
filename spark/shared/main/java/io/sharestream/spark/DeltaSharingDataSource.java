package io.sharestream.spark;

import io.sharestream.common.client.BuildVersion;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.io.IOUtils;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code deltaSharing} data source: {@code spark.readStream.format("deltaSharing").load("<profile>#<share>.<schema>.<table>")}
 * streams a shared table, {@code spark.read} reads a snapshot or a change range. The schema is the table's (a schema
 * given by the user is refused); options are {@link DeltaSharingOptions}. The same source is registered as
 * {@code sharestream} too ({@link SharestreamDataSource}), a name no other source takes.
 */
public class DeltaSharingDataSource implements TableProvider, DataSourceRegister {
  /** This source's version, from the build. */
  static final String VERSION = version();

  private Map<String, String> resolvedFor;
  private SessionConfs resolvedUnder;
  private SharingTable resolved;

  @Override
  public String shortName() {
    return "deltaSharing";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return table(options.asCaseSensitiveMap()).schema();
  }

  @Override
  public Transform[] inferPartitioning(CaseInsensitiveStringMap options) {
    return table(options.asCaseSensitiveMap()).partitioning();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    SharingTable table = table(properties);
    if (schema != null && !schema.equals(table.schema())) {
      throw new IllegalArgumentException("The deltaSharing source reads the schema of the shared table "
          + table.name() + " and takes no other: remove .schema(...). The table's schema is "
          + table.schema().simpleString() + ".");
    }
    return table;
  }

  /** True so that a schema given by the user reaches {@link #getTable}, which refuses it with a clear message. */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  /** The table the options name, resolved once per set of options and session confs (Spark asks several times). */
  private synchronized SharingTable table(Map<String, String> options) {
    SessionConfs confs = SessionConfs.of(SparkSession.active().sessionState().conf());
    if (resolved == null || !options.equals(resolvedFor) || !confs.equals(resolvedUnder)) {
      DeltaSharingOptions o = DeltaSharingOptions.parse(options, DeltaSharingDataSource::readProfile, confs);
      ClientSpec client = new ClientSpec(o.profile(), o.stream().responseFormat(), confs, false);
      DeltaSharingClient c = client.client();
      TableMetadata metadata = c.metadata(o.table(), o.versionAsOf(), o.timestampAsOf()).metadata();
      resolved = new SharingTable(o, client, metadata);
      SparkApi.prepare(SparkSession.active());
      resolvedFor = Collections.unmodifiableMap(new HashMap<>(options));
      resolvedUnder = confs;
    }
    return resolved;
  }

  /** Reads a profile file through Hadoop, so it may live on any file system Spark reaches. */
  static DeltaSharingProfile readProfile(String location) {
    Path path = new Path(location);
    try {
      FileSystem fs = path.getFileSystem(SparkSession.active().sessionState().newHadoopConf());
      String text;
      try (FSDataInputStream in = fs.open(path)) {
        text = new String(IOUtils.toByteArray(in), StandardCharsets.UTF_8);
      }
      return DeltaSharingProfile.fromJson(text);
    } catch (FileNotFoundException e) {
      throw new InvalidProfileException("Profile file " + location + " does not exist.");
    } catch (IOException e) {
      throw new InvalidProfileException("Profile file " + location + " cannot be read: " + e.getMessage());
    } catch (InvalidProfileException e) {
      throw new InvalidProfileException(e.getMessage() + " (profile file " + location + ")");
    }
  }

  private static String version() {
    return BuildVersion.of(DeltaSharingDataSource.class, "/sharestream-spark.properties");
  }
}
