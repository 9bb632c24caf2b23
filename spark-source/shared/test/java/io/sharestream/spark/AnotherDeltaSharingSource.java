package io.sharestream.spark;

import org.apache.spark.sql.sources.DataSourceRegister;

/**
 * Stands for another source registered as {@code deltaSharing} (Databricks Runtime's, the reference client's): only
 * its name matters, and neither can be put on a test's classpath (Databricks Runtime is not public; the reference
 * client's jars are not served here).
 */
public final class AnotherDeltaSharingSource implements DataSourceRegister {
  @Override
  public String shortName() {
    return "deltaSharing";
  }
}
