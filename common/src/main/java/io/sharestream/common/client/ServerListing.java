package io.sharestream.common.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A {@link FileListing} read from the sharing server: the streamed answer of a query or changes request. Its head ({@link #tableVersion()}, {@link #protocol()},
 * {@link #metadata()}) is read on construction, then {@link #next()} yields file actions and historical metadata
 * line by line, following {@code nextPageToken}s. Pages must repeat the same protocol, metadata and table version.
 *
 * <p>A body that breaks off (connection reset, read timeout, or no {@code endStreamAction} although the server
 * promised one) is requested again and the lines already handed out are skipped, so callers see each line once. An
 * {@code endStreamAction} carrying an error fails the listing. Close it to release the connection.
 */
final class ServerListing implements FileListing {
  /** Opens the page with the given token (null: the first page). */
  interface PageOpener {
    Answer open(String pageToken) throws IOException;
  }

  private final DeltaSharingClient client;
  private final String table;
  private final String what;
  private final PageOpener opener;
  private final boolean versionRequired;

  private long tableVersion;
  private ProtocolInfo protocol;
  private TableMetadata metadata;

  private String pageToken;
  /** The body's lines, read as one stream of JSON values (no line is copied into a String first). */
  private JsonParser reader;
  private boolean endPromised;
  private long deliveredInPage;
  private boolean finished;
  private SharingAction pending;
  private Long minUrlExpiration;
  private String refreshToken;
  private int pages;

  /**
   * {@code versionRequired}: the request names versions, so an answer without a version (a shared view's) is refused
   * naming the view; otherwise such an answer has {@link TableSnapshotInfo#NO_VERSION}.
   */
  ServerListing(DeltaSharingClient client, String table, String what, PageOpener opener, boolean versionRequired) {
    this.client = client;
    this.table = table;
    this.what = what;
    this.opener = opener;
    this.versionRequired = versionRequired;
    client.retrier().call(what, () -> {
      openPage();
      return null;
    });
  }

  /**
   * The {@code Delta-Table-Version} of the answer (snapshot version, or the starting version of a range), or
   * {@link TableSnapshotInfo#NO_VERSION} for a shared view's answer.
   */
  @Override
  public long tableVersion() {
    return tableVersion;
  }

  /** Whether the answer came without a table version: a shared view or materialized view. */
  @Override
  public boolean isView() {
    return tableVersion == TableSnapshotInfo.NO_VERSION;
  }

  @Override
  public ProtocolInfo protocol() {
    return protocol;
  }

  /** The metadata at the head of the answer. */
  @Override
  public TableMetadata metadata() {
    return metadata;
  }

  /** The least URL expiry the server reported (after the listing is exhausted), or null. */
  @Override
  public Long minUrlExpirationTimestamp() {
    return minUrlExpiration;
  }

  /** The refresh token of a latest-snapshot query that asked for one (after the listing is exhausted). */
  @Override
  public String refreshToken() {
    return refreshToken;
  }

  /** How many pages were read so far. */
  @Override
  public int pages() {
    return pages;
  }

  @Override
  public boolean hasNext() {
    if (pending == null && !finished) {
      pending = client.retrier().call(what, this::advance);
    }
    return pending != null;
  }

  @Override
  public SharingAction next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    SharingAction a = pending;
    pending = null;
    return a;
  }

  /** Opens the current page (first, next, or again after a failure) and reads its protocol and metadata lines. */
  private void openPage() throws IOException {
    closeReader();
    Answer r = opener.open(pageToken);
    Long header = DeltaSharingClient.versionHeader(r, what);
    if (header == null && versionRequired) {
      r.body().close();
      throw Errors.sharedView(table, what);
    }
    long version = header == null ? TableSnapshotInfo.NO_VERSION : header;
    client.format().check(r, what);
    endPromised = r.header("delta-sharing-capabilities", "").toLowerCase(java.util.Locale.ROOT)
        .contains("includeendstreamaction=true");
    reader = DeltaSharingClient.JSON.getFactory().createParser(r.body());
    ProtocolInfo p = null;
    TableMetadata m = null;
    while (p == null || m == null) {
      JsonNode n = readLine();
      if (n == null) {
        throw new TransientFailure("the answer ended before its protocol and metaData lines", null, null);
      }
      if (n.has("queryStatus")) {
        throw Errors.protocol(what, "the server answered asynchronously (queryStatus) a request that cannot be "
            + "polled");
      }
      if (n.has("protocol")) {
        p = client.format().protocol(n.get("protocol"), what);
      } else if (n.has("metaData")) {
        m = parseMetadata(n.get("metaData"));
      } else {
        throw Errors.protocol(what, "expected protocol and metaData lines first, got " + n.fieldNames().next());
      }
    }
    if (protocol == null) {
      tableVersion = version;
      protocol = p;
      metadata = m;
    } else if (version != tableVersion || !p.equals(protocol) || !m.sameAs(metadata)) {
      throw Errors.protocol(what, "a later page (or retry) answered for table version " + version
          + (m.id().equals(metadata.id()) ? "" : " of table id " + m.id()) + " while the first was for version "
          + tableVersion + " of table id " + metadata.id());
    }
    pages++;
    // after a failure, skip what this page already handed out
    for (long skipped = 0; skipped < deliveredInPage; ) {
      JsonNode n = readLine();
      if (n == null) {
        throw new TransientFailure("the answer ended before the lines already read", null, null);
      }
      if (action(n) != null) {
        skipped++;
      }
    }
  }

  /** Reads to the next action; follows pages; null at the end. */
  private SharingAction advance() throws IOException {
    if (reader == null) {
      openPage();
    }
    while (true) {
      JsonNode n;
      try {
        n = readLine();
      } catch (IOException e) {
        closeReader();
        throw e;
      }
      if (n == null) {
        closeReader();
        if (endPromised) {
          throw new TransientFailure("the answer ended without its endStreamAction (truncated)", null, null);
        }
        finished = true;
        return null;
      }
      if (n.has("endStreamAction")) {
        JsonNode end = n.get("endStreamAction");
        checkEndStream(end, what);
        if (end.hasNonNull("minUrlExpirationTimestamp")) {
          long t = end.get("minUrlExpirationTimestamp").asLong();
          minUrlExpiration = minUrlExpiration == null ? t : Math.min(minUrlExpiration, t);
        }
        if (end.hasNonNull("refreshToken")) {
          refreshToken = end.get("refreshToken").asText();
        }
        String next = end.hasNonNull("nextPageToken") ? end.get("nextPageToken").asText() : "";
        closeReader();
        if (next.isEmpty()) {
          finished = true;
          return null;
        }
        if (next.equals(pageToken)) {
          throw Errors.protocol(what, "the server returned the same nextPageToken twice");
        }
        pageToken = next;
        deliveredInPage = 0;
        openPage();
        continue;
      }
      SharingAction a = action(n);
      if (a != null) {
        deliveredInPage++;
        return a;
      }
    }
  }

  private SharingAction action(JsonNode n) {
    try {
      if (n.has("add")) {
        return FileAction.fromJson(FileAction.Kind.ADD, n.get("add"));
      }
      if (n.has("remove")) {
        return FileAction.fromJson(FileAction.Kind.REMOVE, n.get("remove"));
      }
      if (n.has("cdf")) {
        return FileAction.fromJson(FileAction.Kind.CDF, n.get("cdf"));
      }
      if (n.has("file")) {
        JsonNode file = n.get("file");
        if (file.has("deltaSingleAction")) {
          client.format().require(ResponseFormat.DELTA_NAME, what);
          return FileAction.fromDeltaJson(file);
        }
        return FileAction.fromJson(FileAction.Kind.FILE, file);
      }
      if (n.has("metaData")) {
        return parseMetadata(n.get("metaData"));
      }
      if (n.has("protocol") && n.get("protocol").has("deltaProtocol")) {
        return client.format().historicalProtocol(n.get("protocol"), what);
      }
    } catch (IllegalArgumentException e) {
      throw Errors.protocol(what, e.getMessage());
    }
    return null; // unknown line kinds are ignored, as the protocol asks
  }

  private TableMetadata parseMetadata(JsonNode n) {
    try {
      return client.format().metadata(n, what);
    } catch (IllegalArgumentException e) {
      throw Errors.protocol(what, e.getMessage());
    }
  }

  static void checkEndStream(JsonNode end, String what) {
    if (end.hasNonNull("errorMessage")) {
      throw new ServerErrorException("The server failed while answering " + what + " (reported in its end-of-stream "
          + "marker" + (end.hasNonNull("httpStatusErrorCode") ? ", HTTP " + end.get("httpStatusErrorCode").asInt() : "")
          + "): " + Errors.redact(end.get("errorMessage").asText()));
    }
  }

  /** The next line's JSON, or null at the end of the body; blank lines are skipped. */
  private JsonNode readLine() throws IOException {
    try {
      return reader.nextToken() == null ? null : DeltaSharingClient.JSON.readTree(reader);
    } catch (JsonProcessingException e) {
      throw new TransientFailure("a line of the answer is not JSON (truncated?)", null, e);
    }
  }

  private void closeReader() {
    if (reader != null) {
      try {
        reader.close();
      } catch (IOException ignored) {
        // the connection is being dropped anyway
      }
      reader = null;
    }
  }

  @Override
  public void close() {
    closeReader();
    finished = true;
  }


}
