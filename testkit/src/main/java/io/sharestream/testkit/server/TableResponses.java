package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.delta.Snapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * The table data endpoints: {@code metadata}, {@code query} (snapshot at latest/version/timestamp, or data changes
 * from {@code startingVersion}) and {@code changes} (the change data feed). Every request is validated whole before
 * the status line goes out, then answered line by line; {@code maxFiles}/{@code pageToken} page the file lines,
 * each page repeating the protocol and metadata lines.
 */
final class TableResponses {
  private final DeltaSharingServer server;

  TableResponses(DeltaSharingServer server) {
    this.server = server;
  }

  // ---------------------------------------------------------------- metadata

  int metadata(Request req, SharedTable table, Faults.Rule fault) throws IOException {
    DeltaLog log = log(table);
    Long version = req.longParam("version");
    String ts = req.param("timestamp");
    if (version != null && ts != null) {
      throw ProtocolError.invalid("Please only provide one of version or timestamp.");
    }
    if (version != null || ts != null) {
      requireHistory(table);
    }
    long v = version != null ? version
        : ts != null ? versionAsOf(log, parseTimestamp(ts, "timestamp"), ProtocolError.MALFORMED)
        : log.latestVersion();
    checkSnapshotVersion(log, v);
    Snapshot s = server.metadataSizes() ? ApiHandler.snapshot(log, v, ProtocolError.MALFORMED)
        : ApiHandler.tableState(log, v, ProtocolError.MALFORMED);
    Negotiation n = negotiate(req, table, s, fault);
    Lines lines = lines(req, table, n);
    NdjsonResponse out = new NdjsonResponse(req.exchange, fault);
    out.start(table.view ? null : v, lines.format(), false, false);
    out.line(lines.protocol(s.protocol));
    out.line(lines.metadata(s.metadata, table.historyShared, null, sizes(s)));
    out.finish(Lines.JSON.createObjectNode());
    return 200;
  }

  // ---------------------------------------------------------------- query

  /**
   * {@code POST .../query} with its parsed {@code body}; {@code pinned}, when not null, stands for the latest version
   * (an async query's latest version at submission).
   */
  int query(Request req, SharedTable table, Faults.Rule fault, ObjectNode body, Long pinned) throws IOException {
    Negotiation latestNegotiation = QueryParams.history(body) ? negotiateHistory(req, table, fault) : null;
    QueryParams p = new QueryParams(body);
    if (p.given() > 0) {
      requireHistory(table);
    }
    DeltaLog log = log(table);
    String queryKey = queryKey(table, body);
    Tokens.Page page = p.pageToken == null ? null : Tokens.readPage(p.pageToken, queryKey);
    boolean endMarker = p.maxFiles != null || p.pageToken != null || p.includeRefreshToken
        || req.capability("includeendstreamaction", "true");
    long latest = pinned != null ? pinned : log.latestVersion();
    if (p.startingVersion != null) {
      return changesSince(req, table, log, fault, latestNegotiation, p, page, queryKey, endMarker, latest);
    }
    long v;
    if (page != null) {
      v = page.version;
    } else if (p.refreshToken != null) {
      v = Tokens.readRefresh(p.refreshToken);
    } else if (p.version != null) {
      v = p.version;
    } else if (p.timestamp != null) {
      v = versionAsOf(log, parseTimestamp(p.timestamp, "timestamp"), ProtocolError.MALFORMED);
    } else {
      v = latest;
    }
    checkSnapshotVersion(log, v);
    boolean versioned = p.version != null || p.timestamp != null;
    return snapshot(req, table, log, fault, v, versioned, p.maxFiles, page, queryKey, endMarker,
        p.includeRefreshToken ? Tokens.refresh(v, System.currentTimeMillis() + Duration.ofHours(1).toMillis()) : null,
        p.limitHint, p.jsonPredicateHints);
  }

  /**
   * A snapshot's file lines: filtered by the predicate hints, cut by {@code limitHint} (live rows: a file's records
   * minus its deletion vector's), paged by {@code maxFiles}. The reference server's lines: metaData without
   * {@code version}; files of a snapshot at a version with {@code version}, and without {@code timestamp} unless paged.
   */
  private int snapshot(Request req, SharedTable table, DeltaLog log, Faults.Rule fault, long v, boolean versioned,
      Long maxFiles, Tokens.Page page, String queryKey, boolean endMarker, String refreshToken, Long limitHint,
      String jsonPredicateHints) throws IOException {
    Snapshot s = ApiHandler.snapshot(log, v, ProtocolError.MALFORMED);
    boolean paged = maxFiles != null || page != null;
    Negotiation n = negotiate(req, table, s, fault);
    s.files().forEach(n::checkDeletionVector);
    Lines lines = lines(req, table, n);
    SignedFiles signer = new SignedFiles(server, table);
    PredicateHints hints = PredicateHints.parse(jsonPredicateHints, s.metadata);
    NdjsonResponse out = new NdjsonResponse(req.exchange, fault);
    out.start(table.view ? null : v, lines.format(), endMarker, req.capability("includeendstreamaction", "true"));
    out.line(lines.protocol(s.protocol));
    // the reference server's paged (Delta Standalone) path keeps the configuration whatever the history setting
    out.line(lines.metadata(s.metadata, table.historyShared || paged, null, sizes(s)));
    long index = 0;
    long start = page == null ? 0 : page.positionIndex;
    long emitted = 0;
    long records = 0;
    String next = null;
    for (AddFile f : s.files()) {
      if (!hints.mayMatch(f)) {
        continue;
      }
      if (index++ < start) {
        continue;
      }
      if (maxFiles != null && emitted == maxFiles) {
        next = Tokens.page(queryKey, v, v, index - 1);
        break;
      }
      if (limitHint != null && records >= limitHint) {
        break;
      }
      out.line(lines.file(Lines.Kind.FILE, f, signer, versioned ? v : null, versioned && paged ? s.timestamp : null));
      emitted++;
      if (limitHint != null) {
        records += liveRecords(f);
      }
    }
    ObjectNode end = Lines.JSON.createObjectNode();
    if (next != null) {
      end.put("nextPageToken", next);
    }
    if (refreshToken != null) {
      end.put("refreshToken", refreshToken);
    }
    if (emitted > 0) {
      end.put("minUrlExpirationTimestamp", signer.expiration);
    }
    out.finish(end);
    return 200;
  }

  /** {@code query} with {@code startingVersion}: add/remove actions with {@code dataChange=true} per version. */
  private int changesSince(Request req, SharedTable table, DeltaLog log, Faults.Rule fault, Negotiation n,
      QueryParams p, Tokens.Page page, String queryKey, boolean endMarker, long latestNow) throws IOException {
    long startingVersion = p.startingVersion;
    Long endingVersion = p.endingVersion;
    Long maxFiles = p.maxFiles;
    long latest = page != null ? page.version : latestNow;
    long end = checkRange(log, startingVersion, endingVersion, latest, "reading change data", false);
    Snapshot start = ApiHandler.tableState(log, startingVersion, ProtocolError.INVALID);
    Lines lines = lines(req, table, n);
    VersionStream stream = new VersionStream(server, req, table, log, fault, lines, n, maxFiles, page, queryKey,
        latest);
    stream.checkDeletionVectors(startingVersion, end);
    stream.out.start(startingVersion, lines.format(), endMarker, req.capability("includeendstreamaction", "true"));
    stream.historicalProtocol = p.includeHistoricalProtocol;
    stream.out.line(lines.protocol(start.protocol, p.includeHistoricalProtocol ? startingVersion : null));
    stream.out.line(lines.metadata(start.metadata, table.historyShared, startingVersion, null));
    stream.run(startingVersion, end, false, true);
    return 200;
  }

  // ---------------------------------------------------------------- changes (CDF)

  int changes(Request req, SharedTable table, Faults.Rule fault) throws IOException {
    if (table.view) {
      throw viewHasNoHistory(table);
    }
    if (!table.historyShared) {
      throw ProtocolError.invalid("cdf is not enabled on table " + table.fullName());
    }
    Negotiation n = negotiateHistory(req, table, fault);
    DeltaLog log = log(table);
    Long sv = req.longParam("startingVersion");
    String sts = req.param("startingTimestamp");
    Long ev = req.longParam("endingVersion");
    String ets = req.param("endingTimestamp");
    if (sv != null && sts != null) {
      throw ProtocolError.invalid("Multiple starting arguments provided for CDF read. Please provide one of either "
          + "startingTimestamp or startingVersion.");
    }
    if (ev != null && ets != null) {
      throw ProtocolError.invalid("Multiple ending arguments provided for CDF read. Please provide one of either "
          + "endingTimestamp or endingVersion.");
    }
    if (sv == null && sts == null) {
      throw ProtocolError.invalid("No startingVersion or startingTimestamp provided for CDF read.");
    }
    Long maxFiles = req.longParam("maxFiles");
    if (maxFiles != null && maxFiles <= 0) {
      throw ProtocolError.invalid("maxFiles must be positive: " + maxFiles);
    }
    String pageToken = req.param("pageToken");
    ObjectNode keyParams = Lines.JSON.createObjectNode();
    req.params.forEach((k, v) -> {
      if (!k.equals("maxFiles") && !k.equals("pageToken")) {
        keyParams.put(k, v);
      }
    });
    String queryKey = queryKey(table, keyParams);
    Tokens.Page page = pageToken == null || pageToken.isEmpty() ? null : Tokens.readPage(pageToken, queryKey);
    long latest = page != null ? page.version : log.latestVersion();
    long start = sv != null ? sv : changesStart(log, parseTimestamp(sts, "startingTimestamp"));
    Long endV = ev != null ? ev
        : ets != null ? versionAsOf(log, parseTimestamp(ets, "endingTimestamp"), ProtocolError.INVALID) : null;
    long end = checkRange(log, start, endV, latest, "reading change data", true);
    boolean historical = Boolean.parseBoolean(req.param("includeHistoricalMetadata"));

    Snapshot first = ApiHandler.tableState(log, start, ProtocolError.INVALID);
    checkChangeDataRecorded(log, first.metadata, start, end);
    // without historical metadata, the one metaData line is the latest one, with the latest version
    Metadata head = historical ? first.metadata
        : ApiHandler.tableState(log, latest, ProtocolError.INVALID).metadata;
    Lines lines = lines(req, table, n);
    VersionStream stream = new VersionStream(server, req, table, log, fault, lines, n, maxFiles, page, queryKey,
        latest);
    stream.checkDeletionVectors(start, end);
    boolean endMarker = maxFiles != null || page != null || req.capability("includeendstreamaction", "true");
    stream.out.start(start, lines.format(), endMarker, req.capability("includeendstreamaction", "true"));
    stream.historicalProtocol = Boolean.parseBoolean(req.param("includeHistoricalProtocol"));
    stream.out.line(lines.protocol(first.protocol, stream.historicalProtocol ? start : null));
    stream.out.line(lines.metadata(head, table.historyShared, historical ? start : latest, null));
    stream.run(start, end, true, historical);
    return 200;
  }

  private static void checkChangeDataRecorded(DeltaLog log, Metadata atStart, long start, long end) {
    boolean enabled = atStart.changeDataFeedEnabled();
    for (long v = start; v <= end; v++) {
      if (v > start) {
        Metadata[] latest = {null};
        log.forEachAction(v, a -> {
          if (a instanceof Metadata) {
            latest[0] = (Metadata) a;
          }
        });
        if (latest[0] != null) {
          enabled = latest[0].changeDataFeedEnabled();
        }
      }
      if (!enabled) {
        throw ProtocolError.invalid("Error getting change data for range [" + start + ", " + end + "] as change "
            + "data was not recorded for version [" + v + "]");
      }
    }
  }

  // ---------------------------------------------------------------- shared checks

  static DeltaLog log(SharedTable table) {
    DeltaLog log = table.location().log;
    if (!log.exists()) {
      throw ProtocolError.malformed("Table " + table.fullName() + " has no Delta table at its location.");
    }
    return log;
  }

  static void requireHistory(SharedTable table) {
    if (table.view) {
      throw viewHasNoHistory(table);
    }
    if (!table.historyShared) {
      throw ProtocolError.invalid("Reading table by version or timestamp is not supported because history sharing "
          + "is not enabled on table: " + table.fullName());
    }
  }

  static ProtocolError viewHasNoHistory(SharedTable view) {
    return ProtocolError.invalid(view.fullName() + " is a view and has no history: time travel, change data feed and "
        + "streaming are not available.");
  }

  /**
   * The negotiation of a metadata or snapshot answer at state {@code s}: a table whose properties need reader
   * features (deletion vectors, column mapping) is refused unless asked in delta format with them; another table
   * needing delta format ({@code minReaderVersion > 1}) is refused in parquet format.
   */
  private Negotiation negotiate(Request req, SharedTable table, Snapshot s, Faults.Rule fault) {
    Negotiation n = Negotiation.of(req, s.protocol, fault);
    if (!Negotiation.neededFeatures(s.metadata).isEmpty() && !n.reads(s.metadata)) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Unsupported Delta Table Properties");
    }
    Protocol protocol = s.protocol;
    if (protocol.minReaderVersion > 1 && !n.delta) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Unsupported Delta table " + table.fullName()
          + ": Delta protocol version (" + protocol.minReaderVersion + "," + protocol.minWriterVersion + ")"
          + (protocol.readerFeatures == null ? "" : " with reader features " + protocol.readerFeatures)
          + " is too new for the parquet response format; use responseFormat=delta.");
    }
    return n;
  }

  /**
   * The negotiation of a history answer (startingVersion, paged or changes), made on the latest version before any
   * parameter is looked at: a table whose properties need reader features is answered only in delta format with them
   * and with history in delta format on; otherwise it gets the reference server's Delta Standalone refusal.
   */
  private Negotiation negotiateHistory(Request req, SharedTable table, Faults.Rule fault) {
    log(table); // refuses a location without a Delta table
    Snapshot latest = table.location().latestState(ProtocolError.INVALID);
    Negotiation n = Negotiation.of(req, latest.protocol, fault);
    if (!Negotiation.neededFeatures(latest.metadata).isEmpty()
        && (!server.historyInDeltaFormat() || !n.reads(latest.metadata))) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Delta protocol version ("
          + latest.protocol.minReaderVersion + "," + latest.protocol.minWriterVersion + ") is too new for this "
          + "version of Delta Standalone Reader/Writer (1,2). Please upgrade to a newer release.");
    }
    return negotiate(req, table, latest, fault);
  }

  /** The lines of an answer to {@code req}: file ids by its {@code fileidhash} header unless the server ignores it. */
  private Lines lines(Request req, SharedTable table, Negotiation n) {
    return new Lines(n.delta, server.deletionVectorFileIds(), server.honourFileIdHash() ? req.fileIdHash : null,
        table.view, ObjectStore.accessFields(table));
  }

  /** A snapshot's version must exist: the reference answers 400 {@code MALFORMED_REQUEST} otherwise. */
  private static void checkSnapshotVersion(DeltaLog log, long v) {
    long latest = log.latestVersion();
    if (v > latest) {
      throw ProtocolError.malformed("Cannot load table version " + v + " as the latest version is " + latest + ".");
    }
    long earliest = log.earliestVersion();
    if (v < earliest) {
      throw ProtocolError.malformed("Cannot load table version " + v + ": it is before the earliest available "
          + "version " + earliest + ".");
    }
  }

  /** The metaData line's {@code size} and {@code numFiles}, when the server is set to send them. */
  private long[] sizes(Snapshot s) {
    return server.metadataSizes() ? new long[] {s.sizeInBytes(), s.files().size()} : null;
  }

  /**
   * Validates {@code [start, end]} (end defaults to latest) and returns end; an end beyond the latest is clamped to
   * it when {@code clampEnd} (the changes endpoint) and refused otherwise (query with startingVersion).
   */
  private static long checkRange(DeltaLog log, long start, Long end, long latest, String what, boolean clampEnd) {
    if (start > latest) {
      throw ProtocolError.invalid("Provided Start version(" + start + ") for " + what + " is invalid. Start "
          + "version cannot be greater than the latest version of the table(" + latest + ").");
    }
    long e = end == null || (clampEnd && end > latest) ? latest : end;
    if (e > latest) {
      throw ProtocolError.invalid("Provided End version(" + e + ") for " + what + " is invalid. End version "
          + "cannot be greater than the latest version of the table(" + latest + ").");
    }
    if (start > e) {
      throw ProtocolError.invalid("CDF range from start " + start + " to end " + e + " was invalid. End version "
          + "cannot be before start version.");
    }
    long earliest = log.earliestCommitVersion();
    if (start < earliest) {
      throw ProtocolError.invalid("Cannot load table version " + start + ": it is before the earliest available "
          + "version " + earliest + " (the log before it was cleaned up).");
    }
    return e;
  }

  static Instant parseTimestamp(String text, String param) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e2) {
        throw ProtocolError.invalid("Invalid " + param + " '" + text + "': expected an ISO-8601 timestamp such as "
            + "2022-01-01T00:00:00Z");
      }
    }
  }

  /**
   * The latest version committed at or before {@code t} (time travel by timestamp); a {@code t} before the first or
   * after the last commit answers 400 with {@code errorCode}.
   */
  static long versionAsOf(DeltaLog log, Instant t, String errorCode) {
    NavigableMap<Long, Long> ts = log.timestamps();
    long ms = t.toEpochMilli();
    Map.Entry<Long, Long> firstEntry = ts.firstEntry();
    if (ms < firstEntry.getValue()) {
      throw new ProtocolError(400, errorCode, beforeEarliest(t, firstEntry));
    }
    Map.Entry<Long, Long> lastEntry = ts.lastEntry();
    if (ms > lastEntry.getValue()) {
      throw new ProtocolError(400, errorCode, "The provided timestamp (" + t + ") is after the latest version "
          + "available to this table (" + lastEntry.getKey() + " at " + Instant.ofEpochMilli(lastEntry.getValue())
          + ").");
    }
    long found = firstEntry.getKey();
    for (Map.Entry<Long, Long> e : ts.entrySet()) {
      if (e.getValue() <= ms) {
        found = e.getKey();
      }
    }
    return found;
  }

  private static String beforeEarliest(Instant t, Map.Entry<Long, Long> first) {
    Instant at = Instant.ofEpochMilli(first.getValue());
    return "The provided timestamp (" + t + ") is before the earliest version available to this table (" + at
        + "). Please use a timestamp greater than or equal to " + at + ".";
  }

  /** The start of a changes range by timestamp: the first version at or after {@code t}, none before the first. */
  private static long changesStart(DeltaLog log, Instant t) {
    Map.Entry<Long, Long> first = log.timestamps().firstEntry();
    if (t.toEpochMilli() < first.getValue()) {
      throw ProtocolError.invalid(beforeEarliest(t, first));
    }
    return firstVersionAtOrAfter(log, t, ProtocolError.INVALID);
  }

  /**
   * The first version committed at or after {@code t}; the earliest one when {@code t} precedes them all; a
   * {@code t} after the last commit answers 400 with {@code errorCode}.
   */
  static long firstVersionAtOrAfter(DeltaLog log, Instant t, String errorCode) {
    NavigableMap<Long, Long> ts = log.timestamps();
    long ms = t.toEpochMilli();
    for (Iterator<Map.Entry<Long, Long>> it = ts.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Long> e = it.next();
      if (e.getValue() >= ms) {
        return e.getKey();
      }
    }
    throw new ProtocolError(400, errorCode, "The provided timestamp (" + t + ") is after the latest commit timestamp ("
        + Instant.ofEpochMilli(ts.lastEntry().getValue()) + ") of version " + ts.lastKey() + ".");
  }

  /** The file's live rows by its stats: records minus those its deletion vector deletes. */
  private static long liveRecords(AddFile f) {
    long deleted = f.deletionVector == null ? 0 : f.deletionVector.cardinality;
    if (f.stats == null) {
      return 0;
    }
    try {
      return Lines.JSON.readTree(f.stats).path("numRecords").asLong(0) - deleted;
    } catch (IOException e) {
      return 0;
    }
  }

  /** A key of the query's parameters that a page token is bound to (everything but paging fields and an async
   *  query's idempotency key). */
  private static String queryKey(SharedTable table, JsonNode params) {
    ObjectNode copy = params.isObject() ? ((ObjectNode) params).deepCopy() : Lines.JSON.createObjectNode();
    copy.remove(List.of("maxFiles", "pageToken", AsyncQueries.IDEMPOTENCY_KEY, AsyncQueries.IDEMPOTENCY_KEY_SNAKE));
    List<String> names = new ArrayList<>();
    copy.fieldNames().forEachRemaining(names::add);
    names.sort(null);
    StringBuilder canonical = new StringBuilder(table.fullName()).append('|').append(table.location().key);
    for (String n : names) {
      canonical.append('|').append(n).append('=').append(copy.get(n));
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return FileUrls.hex(d).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

}
