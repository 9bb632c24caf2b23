package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.deletionvectors.DeletionVectorFormat;
import io.sharestream.common.deltalog.DeltaLog;
import io.sharestream.common.deltalog.LogCommit;
import io.sharestream.common.deltalog.LogSnapshot;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import java.io.Closeable;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A table read from its storage directory ({@code dir} access): the answers of the query and changes endpoints,
 * the table's version and its metadata, made from its Delta log as a sharing server makes them, so the planners
 * read a {@code dir} table as they read a {@code url} one. Files are handed out as URLs signed locally with the
 * table's vended credentials ({@link StorageUrls}); their ids are the MD5 of the log's path, the
 * {@code fileidhash=parquet} scheme the client asks servers for, so positions hold when a table's access changes
 * from one mode to the other. What a history answer holds follows the reference server: {@code dataChange} adds and
 * removes of each version (a version's change data files instead, for the changes endpoint, where it has some), a
 * version's {@code metaData} and {@code protocol} when it changes them.
 */
final class DirectoryTable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String table;
  private final DeltaLog log;
  private final StorageUrls urls;
  private final AnswerFormat format;

  DirectoryTable(String table, DeltaLog log, StorageUrls urls, java.util.Set<String> readerFeatures) {
    this.table = table;
    this.log = log;
    this.urls = urls;
    this.format = new AnswerFormat(ResponseFormat.DELTA, readerFeatures);
  }

  long tableVersion() {
    return log.latestVersion();
  }

  /** The first version committed at or after {@code t}; one after a table's last commit refuses, as servers do. */
  long tableVersionAt(Instant t) {
    long v = log.versionAtOrAfter(t);
    long latest = log.latestVersion();
    if (v > latest) {
      throw Errors.versionAfterLatest("the version at " + t + " of " + table, latest, "");
    }
    return v;
  }

  TableSnapshotInfo metadata(Long version, Instant timestamp) {
    long v = version != null ? version : timestamp != null ? versionAtOrBefore(timestamp) : log.latestVersion();
    LogSnapshot s = log.snapshot(v);
    return new TableSnapshotInfo(v, protocol(s.protocol(), null), metadata(s.metadata(), v));
  }

  FileListing query(QueryRequest q) {
    if (q.startingVersion() != null) {
      long latest = log.latestVersion();
      long end = q.endingVersion() == null ? latest : q.endingVersion();
      if (end > latest) {
        throw Errors.versionAfterLatest("the versions " + q.startingVersion() + " to " + end + " of " + table, latest,
            "");
      }
      long from = q.startingVersion();
      return history(log.snapshot(from), log.commits(from, end), end, false, true);
    }
    long v = q.version() != null ? q.version() : q.timestamp() != null ? versionAtOrBefore(q.timestamp())
        : log.latestVersion();
    LogSnapshot s = log.snapshot(v);
    DirectoryListing.ExpiryTracker expiry = new DirectoryListing.ExpiryTracker();
    Long stamp = q.version() != null || q.timestamp() != null ? v : null; // latest snapshots carry no version
    Iterator<ObjectNode> adds = s.files();
    return new DirectoryListing(v, protocol(s.protocol(), null), metadata(s.metadata(), null),
        new Mapped(adds, add -> file("add", add, stamp, null, expiry)), expiry);
  }

  FileListing changes(ChangesRequest c) {
    long latest = log.latestVersion();
    long from = c.startingVersion() != null ? c.startingVersion() : log.versionAtOrAfter(c.startingTimestamp());
    long end = c.endingVersion() != null ? c.endingVersion()
        : c.endingTimestamp() != null ? versionAtOrBefore(c.endingTimestamp()) : latest;
    end = Math.min(end, latest);
    LogSnapshot start = log.snapshot(from);
    List<LogCommit> commits = log.commits(from, end);
    checkChangeDataRecorded(start, commits);
    return history(start, commits, end, true, c.includeHistoricalMetadata());
  }

  /**
   * Refuses a range with a version whose table did not record change data, as servers do, naming the first such
   * version. A commit's {@code metaData} comes before its files (Delta writes it so): each commit is read up to its
   * first file.
   */
  private void checkChangeDataRecorded(LogSnapshot start, List<LogCommit> commits) {
    if (!metadata(start.metadata(), start.version()).changeDataFeedEnabled()) {
      throw Errors.changeDataNotRecorded(table, start.version());
    }
    for (LogCommit c : commits) {
      if (c.version() == start.version()) {
        continue; // its metadata is the start's
      }
      Iterator<ObjectNode> it = c.actions();
      try {
        while (it.hasNext()) {
          ObjectNode a = it.next();
          if (a.has("add") || a.has("remove") || a.has("cdc")) {
            break;
          }
          if (a.has("metaData") && !metadata(a.get("metaData"), c.version()).changeDataFeedEnabled()) {
            throw Errors.changeDataNotRecorded(table, c.version());
          }
        }
      } finally {
        DeltaLog.closeQuietly(it);
      }
    }
  }

  /** The last version committed at or before {@code t}. */
  private long versionAtOrBefore(Instant t) {
    long earliest = log.earliestCommit();
    long found = -1;
    for (LogCommit c : log.commits(earliest, log.latestVersion())) {
      if (c.timestamp() > t.toEpochMilli()) {
        break;
      }
      found = c.version();
    }
    if (found < 0) {
      throw Errors.logVersionUnavailable(table, earliest - 1, earliest);
    }
    return found;
  }

  /**
   * The changes of {@code commits} (from the {@code start} snapshot's version to {@code to}), as a history answer
   * ({@code cdf}: the changes endpoint's).
   */
  private FileListing history(LogSnapshot start, List<LogCommit> commits, long to, boolean cdf,
      boolean historicalMetadata) {
    long from = start.version();
    TableMetadata head = historicalMetadata ? metadata(start.metadata(), from)
        : metadata(log.snapshot(to).metadata(), to);
    DirectoryListing.ExpiryTracker expiry = new DirectoryListing.ExpiryTracker();
    return new DirectoryListing(from, protocol(start.protocol(), from), head,
        new History(commits, from, cdf, historicalMetadata, expiry), expiry);
  }

  private ProtocolInfo protocol(JsonNode p, Long version) {
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set("deltaProtocol", p);
    if (version != null) {
      wrapper.put("version", version);
    }
    return format.protocol(wrapper, "the protocol of " + table);
  }

  private TableMetadata metadata(JsonNode m, Long version) {
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.set("deltaMetadata", m);
    if (version != null) {
      wrapper.put("version", version);
    }
    return format.metadata(wrapper, "the metadata of " + table);
  }

  /** A file action of the log as a sharing server hands it out: a signed URL, its id, version and time. */
  private FileAction file(String kind, JsonNode action, Long version, Long timestamp,
      DirectoryListing.ExpiryTracker expiry) {
    ObjectNode a = ((ObjectNode) action).deepCopy();
    String path = a.path("path").asText();
    StorageUrls.Signed url = urls.sign(path);
    long expires = url.expiresAt();
    a.put("path", url.url());
    JsonNode dv = a.get("deletionVector");
    if (dv instanceof ObjectNode && !"i".equals(dv.path("storageType").asText())) {
      ObjectNode d = (ObjectNode) dv;
      String dvPath = "u".equals(d.path("storageType").asText())
          ? DeletionVectorFormat.storedPath(d.path("pathOrInlineDv").asText()) : d.path("pathOrInlineDv").asText();
      StorageUrls.Signed dvUrl = urls.sign(dvPath);
      expires = Math.min(expires, dvUrl.expiresAt());
      d.put("storageType", "p");
      d.put("pathOrInlineDv", dvUrl.url());
    }
    ObjectNode line = JSON.createObjectNode();
    line.put("id", fileId(path));
    if (version != null) {
      line.put("version", version);
    }
    if (timestamp != null) {
      line.put("timestamp", timestamp);
    }
    expiry.saw(expires);
    line.put("expirationTimestamp", expires);
    line.set("deltaSingleAction", JSON.createObjectNode().set(kind, a));
    try {
      return FileAction.fromDeltaJson(line);
    } catch (IllegalArgumentException e) {
      throw Errors.logUnreadable(table, "a " + kind + " action: " + e.getMessage());
    }
  }

  /** The id a server gives the file at {@code path} under {@code fileidhash=parquet}: MD5 hex of the log path. */
  static String fileId(String path) {
    try {
      byte[] d = MessageDigest.getInstance("MD5").digest(path.getBytes(StandardCharsets.UTF_8));
      return String.format("%032x", new BigInteger(1, d));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JVM has MD5
    }
  }

  /** An iterator's elements through a function. */
  private static final class Mapped implements Iterator<SharingAction>, Closeable {
    private final Iterator<ObjectNode> in;
    private final java.util.function.Function<ObjectNode, SharingAction> f;

    Mapped(Iterator<ObjectNode> in, java.util.function.Function<ObjectNode, SharingAction> f) {
      this.in = in;
      this.f = f;
    }

    @Override
    public boolean hasNext() {
      return in.hasNext();
    }

    @Override
    public SharingAction next() {
      return f.apply(in.next());
    }

    @Override
    public void close() {
      DeltaLog.closeQuietly(in);
    }
  }

  /** The actions of a range of commits, one commit's file read at a time. */
  private final class History implements Iterator<SharingAction>, Closeable {
    private final Deque<LogCommit> commits;
    private final long from;
    private final boolean cdf;
    private final boolean historicalMetadata;
    private final DirectoryListing.ExpiryTracker expiry;
    private LogCommit commit;
    private boolean useCdc;
    private Iterator<ObjectNode> actions;
    private SharingAction next;

    History(List<LogCommit> commits, long from, boolean cdf, boolean historicalMetadata,
        DirectoryListing.ExpiryTracker expiry) {
      this.commits = new ArrayDeque<>(commits);
      this.from = from;
      this.cdf = cdf;
      this.historicalMetadata = historicalMetadata;
      this.expiry = expiry;
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        if (actions != null && actions.hasNext()) {
          next = convert(actions.next());
        } else if (!commits.isEmpty()) {
          DeltaLog.closeQuietly(actions);
          commit = commits.removeFirst();
          useCdc = cdf && hasCdc(commit);
          actions = commit.actions();
        } else {
          DeltaLog.closeQuietly(actions);
          actions = null;
          return false;
        }
      }
      return true;
    }

    @Override
    public SharingAction next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      SharingAction a = next;
      next = null;
      return a;
    }

    private SharingAction convert(ObjectNode a) {
      long v = commit.version();
      if (a.has("metaData")) {
        return historicalMetadata && v > from ? metadata(a.get("metaData"), v) : null;
      }
      if (a.has("protocol")) {
        return v > from ? format.historicalProtocol(protocolLine(a.get("protocol"), v), "the protocol of " + table)
            : null;
      }
      if (useCdc) {
        return a.has("cdc") ? file("cdc", a.get("cdc"), v, commit.timestamp(), expiry) : null;
      }
      for (String kind : new String[] {"add", "remove"}) {
        if (a.has(kind) && a.get(kind).path("dataChange").asBoolean(true)) {
          return file(kind, a.get(kind), v, commit.timestamp(), expiry);
        }
      }
      return null;
    }

    private JsonNode protocolLine(JsonNode p, long v) {
      ObjectNode wrapper = JSON.createObjectNode();
      wrapper.set("deltaProtocol", p);
      wrapper.put("version", v);
      return wrapper;
    }

    private boolean hasCdc(LogCommit c) {
      Iterator<ObjectNode> it = c.actions();
      try {
        while (it.hasNext()) {
          if (it.next().has("cdc")) {
            return true;
          }
        }
        return false;
      } finally {
        DeltaLog.closeQuietly(it);
      }
    }

    @Override
    public void close() {
      DeltaLog.closeQuietly(actions);
      commits.clear();
    }
  }
}
