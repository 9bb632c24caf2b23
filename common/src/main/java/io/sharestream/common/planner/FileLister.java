package io.sharestream.common.planner;

import io.sharestream.common.client.ChangesRequest;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.TableRef;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs the request a {@link FetchSpec} describes. The planner lists windows with it; URL refreshes run the same
 * spec again and look the file up by kind and id.
 */
public final class FileLister {
  private final DeltaSharingClient client;
  private final TableRef table;
  private final Integer pageSize;

  public FileLister(DeltaSharingClient client, TableRef table, Integer pageSize) {
    this.client = client;
    this.table = table;
    this.pageSize = pageSize;
  }

  /** Streams the spec's answer: its head metadata first, then every action. */
  void list(FetchSpec spec, Consumer<TableMetadata> head, Consumer<SharingAction> actions) {
    try (FileListing l = open(spec)) {
      head.accept(l.metadata());
      while (l.hasNext()) {
        actions.accept(l.next());
      }
    }
  }

  private FileListing open(FetchSpec spec) {
    switch (spec.kind()) {
      case SNAPSHOT: {
        QueryRequest q = QueryRequest.atVersion(spec.startVersion());
        return client.query(table, pageSize == null ? q : q.maxFiles(pageSize));
      }
      case LATEST: {
        QueryRequest q = QueryRequest.latest();
        return client.query(table, pageSize == null ? q : q.maxFiles(pageSize));
      }
      case QUERY: {
        QueryRequest q = QueryRequest.changes(spec.startVersion(), spec.endVersion());
        return client.query(table, pageSize == null ? q : q.maxFiles(pageSize));
      }
      default: {
        ChangesRequest c = ChangesRequest.fromVersion(spec.startVersion()).endingVersion(spec.endVersion());
        return client.changes(table, pageSize == null ? c : c.maxFiles(pageSize));
      }
    }
  }

  /** The spec's files again, with fresh URLs, by {@link #key}. */
  public Map<String, FileAction> fresh(FetchSpec spec) {
    Map<String, FileAction> out = new HashMap<>();
    list(spec, m -> { }, a -> {
      if (a instanceof FileAction) {
        out.put(key((FileAction) a), (FileAction) a);
      }
    });
    return out;
  }

  /** Identity of a file line within one answer: an add and a remove of one path share an id, so the kind counts. */
  public static String key(FileAction f) {
    return f.kind() + ":" + f.id() + (f.version() == null ? "" : "@" + f.version());
  }
}
