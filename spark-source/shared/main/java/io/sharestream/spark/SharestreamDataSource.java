package io.sharestream.spark;

/**
 * The {@link DeltaSharingDataSource} under the short name {@code sharestream}: the same source and options, for
 * clusters where another source also registers {@code deltaSharing} (Databricks Runtime's own, or the reference
 * client's jar), which makes Spark refuse that name as ambiguous.
 */
public final class SharestreamDataSource extends DeltaSharingDataSource {
  @Override
  public String shortName() {
    return "sharestream";
  }
}
