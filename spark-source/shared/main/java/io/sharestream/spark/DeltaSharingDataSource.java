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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.sources.RelationProvider;
import org.apache.spark.sql.sources.SchemaRelationProvider;
import org.apache.spark.sql.sources.StreamSourceProvider;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * The {@code deltaSharing} data source: {@code spark.readStream.format("deltaSharing").load("<profile>#<share>.<schema>.<table>")}
 * streams a shared table, {@code spark.read} reads a snapshot or a change range. The schema is the table's (a schema
 * given by the user is refused); options are {@link DeltaSharingOptions}. The same source is registered as
 * {@code sharestream} too ({@link SharestreamDataSource}), a name no other source takes.
 *
 * <p>A table of the session catalog ({@code CREATE TABLE t USING deltaSharing LOCATION '...'}) reaches a source
 * through Spark's DSv1 interfaces (Spark 3.x; Spark 4 with a session catalog extension such as Delta's) or through
 * {@link #getTable} with the table's properties (Spark 4's own session catalog): both lead to the same table.
 */
public class DeltaSharingDataSource implements TableProvider, DataSourceRegister, RelationProvider,
    SchemaRelationProvider, StreamSourceProvider {
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
    SparkLine.require(); // before anything of this Spark is touched
    return table(options.asCaseSensitiveMap()).schema();
  }

  /**
   * None: the table reports its own partitioning ({@link SharingTable#partitioning}), whatever {@link #getTable} is
   * given. Spark 4's session catalog stores what this returns with a table it creates, and a DSv1 catalog table
   * whose partition columns are not its last columns cannot be described (Spark checks that they are).
   */
  @Override
  public Transform[] inferPartitioning(CaseInsensitiveStringMap options) {
    return new Transform[0];
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    SparkLine.require(); // before anything of this Spark is touched
    return checked(table(properties), schema);
  }

  /** A table of the session catalog on Spark 3.x (and on 4.x under a catalog extension such as Delta's): a batch read. */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters) {
    return createRelation(sqlContext, parameters, null);
  }

  /** As {@link #createRelation(SQLContext, scala.collection.immutable.Map)}, with the schema the catalog stored. */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters,
      StructType schema) {
    SparkLine.require(); // before anything of this Spark is touched
    return new CatalogTableRelation(sqlContext, checked(table(javaMap(parameters)), schema));
  }

  @Override
  public Tuple2<String, StructType> sourceSchema(SQLContext sqlContext, Option<StructType> schema, String providerName,
      scala.collection.immutable.Map<String, String> parameters) {
    SparkLine.require(); // before anything of this Spark is touched
    return new Tuple2<>(shortName(), checked(table(javaMap(parameters)), orNull(schema)).schema());
  }

  /** A table of the session catalog on Spark 3.x (and on 4.x under a catalog extension): a stream. */
  @Override
  public Source createSource(SQLContext sqlContext, String metadataPath, Option<StructType> schema,
      String providerName, scala.collection.immutable.Map<String, String> parameters) {
    SparkLine.require(); // before anything of this Spark is touched
    SharingTable table = checked(table(javaMap(parameters)), orNull(schema));
    return SparkApi.catalogTableSource(sqlContext, table.schema(), (SharingMicroBatchStream) table
        .newScanBuilder(CaseInsensitiveStringMap.empty()).build().toMicroBatchStream(metadataPath));
  }

  private static SharingTable checked(SharingTable table, StructType schema) {
    if (!table.accepts(schema)) {
      throw new IllegalArgumentException("The deltaSharing source reads the schema of the shared table "
          + table.name() + " and takes no other: remove .schema(...); for a catalog table whose stored schema is "
          + "no longer the shared table's, create the table again. The table's schema is "
          + table.schema().simpleString() + ", not " + schema.simpleString() + ".");
    }
    return table;
  }

  private static StructType orNull(Option<StructType> schema) {
    return schema.isDefined() ? schema.get() : null;
  }

  private static Map<String, String> javaMap(scala.collection.immutable.Map<String, String> parameters) {
    return new HashMap<>(JavaConverters.mapAsJavaMapConverter(parameters).asJava());
  }

  /**
   * The source's options from what Spark passes: the options, or for a table of Spark 4's session catalog its
   * properties (provider, location, owner..., the OPTIONS as option.*), of which the OPTIONS and the path count.
   */
  private static Map<String, String> sourceOptions(Map<String, String> given) {
    if (!given.containsKey("provider")) {
      return given;
    }
    Map<String, String> options = new HashMap<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      if (e.getKey().startsWith("option.")) {
        options.put(e.getKey().substring("option.".length()), e.getValue());
      }
    }
    String path = given.containsKey(DeltaSharingOptions.PATH) ? given.get(DeltaSharingOptions.PATH)
        : given.get("location");
    if (path != null) {
      options.put(DeltaSharingOptions.PATH, path);
    }
    return options;
  }

  /**
   * True so that a schema given by the user reaches {@link #getTable}, which refuses it with a clear message, and so
   * that Spark 4 stores a catalog table's schema when it is created (then passed back here, and checked).
   */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  /** The table the options name, resolved once per set of options and session confs (Spark asks several times). */
  private synchronized SharingTable table(Map<String, String> given) {
    Map<String, String> options = sourceOptions(given);
    SessionConfs confs = SessionConfs.of(SparkSession.active().sessionState().conf());
    if (resolved == null || !options.equals(resolvedFor) || !confs.equals(resolvedUnder)) {
      DeltaSharingOptions o = DeltaSharingOptions.parse(options, DeltaSharingDataSource::readProfile, confs);
      ClientSpec client = new ClientSpec(o.profile(), o.profileLocation(), o.stream().responseFormat(), confs,
          o.network(), false, o.stream().access());
      DeltaSharingClient c = client.client();
      TableMetadata metadata = c.metadata(o.table(), o.versionAsOf(), o.timestampAsOf()).metadata();
      resolved = new SharingTable(options, o, client, metadata);
      SparkApi.prepare(SparkSession.active());
      resolvedFor = Collections.unmodifiableMap(new HashMap<>(options));
      resolvedUnder = confs;
    }
    return resolved;
  }

  /** Reads a profile file through Hadoop, so it may live on any file system Spark reaches. */
  static DeltaSharingProfile readProfile(String location) {
    String text;
    try {
      text = readProfileText(location);
    } catch (FileNotFoundException e) {
      throw new InvalidProfileException("Profile file " + location + " does not exist.");
    } catch (IOException e) {
      throw new InvalidProfileException("Profile file " + location + " cannot be read: " + e.getMessage());
    }
    return DeltaSharingProfile.fromJson(text, location, localDirectory(location));
  }

  /**
   * A profile file's text, read through Hadoop with the active session's conf (on executors, which have no session,
   * with the JVM's default Hadoop conf).
   */
  static String readProfileText(String location) throws IOException {
    Path path = new Path(location);
    scala.Option<SparkSession> session = SparkSession.getActiveSession();
    Configuration conf = session.isDefined() ? session.get().sessionState().newHadoopConf() : new Configuration();
    FileSystem fs = path.getFileSystem(conf);
    try (FSDataInputStream in = fs.open(path)) {
      return new String(IOUtils.toByteArray(in), StandardCharsets.UTF_8);
    }
  }

  /** The local directory of a profile file (where a private key file it names by a relative path is); else null. */
  static java.nio.file.Path localDirectory(String location) {
    java.net.URI uri = new Path(location).toUri();
    if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
      return null;
    }
    java.nio.file.Path parent = java.nio.file.Paths.get(uri.getPath()).toAbsolutePath().getParent();
    return parent;
  }

  private static String version() {
    return BuildVersion.of(DeltaSharingDataSource.class, "/sharestream-spark.properties");
  }
}
