package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaAction.FileAction;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaLog;
import java.io.IOException;
import java.util.List;
import java.util.NavigableMap;

/**
 * The body of a history answer ({@code query} with {@code startingVersion}, or {@code changes}): streams the file
 * actions of versions {@code [from, to]} with their version and commit timestamp, historical
 * metaData lines between them, and page bookkeeping by {@code (version, index within version)}.
 */
final class VersionStream {
  final NdjsonResponse out;
  final SharedTable table;
  final DeltaLog log;
  final Lines lines;
  final Negotiation negotiation;
  final Long maxFiles;
  final Tokens.Page page;
  final String queryKey;
  final long pinned;
  final SignedFiles signer;
  /** Whether protocol changes after the first version are sent (stamped with their version). */
  boolean historicalProtocol;
  long emitted;
  String next;

  VersionStream(DeltaSharingServer server, Request req, SharedTable table, DeltaLog log, Faults.Rule fault, Lines lines, Negotiation negotiation,
      Long maxFiles, Tokens.Page page, String queryKey, long latest) {
    this.out = new NdjsonResponse(req.exchange, fault);
    this.table = table;
    this.log = log;
    this.lines = lines;
    this.negotiation = negotiation;
    this.maxFiles = maxFiles;
    this.page = page;
    this.queryKey = queryKey;
    this.pinned = page == null ? latest : page.version;
    this.signer = new SignedFiles(server, table);
  }

  /**
   * Refuses the range up front when a file in it carries a deletion vector the client cannot read; only a table
   * whose protocol has the {@code deletionVectors} feature can hold one.
   */
  void checkDeletionVectors(long from, long to) {
    if (negotiation.readsDeletionVectors()) {
      return;
    }
    List<String> features = table.location().latestState(ProtocolError.INVALID).protocol.readerFeatures;
    if (features == null || !features.contains("deletionVectors")) {
      return;
    }
    for (long v = from; v <= to; v++) {
      log.forEachAction(v, a -> {
        if (a instanceof FileAction) {
          negotiation.checkDeletionVector((FileAction) a);
        }
      });
    }
  }

  void run(long from, long to, boolean cdf, boolean historicalMetadata) throws IOException {
    NavigableMap<Long, Long> timestamps = log.timestamps();
    long first = page == null ? from : page.positionVersion;
    for (long v = first; v <= to && next == null; v++) {
      long skip = page != null && v == page.positionVersion ? page.positionIndex : 0;
      boolean useCdc = cdf && hasCdc(v);
      long version = v;
      long timestamp = timestamps.get(v);
      long[] index = {0};
      IOException[] failure = {null};
      log.visitActions(v, a -> {
        try {
          if (a instanceof Metadata) {
            if (historicalMetadata && version > from && skip == 0) {
              out.line(lines.metadata((Metadata) a, table.historyShared, version, null));
            }
            return true;
          }
          if (a instanceof Protocol) {
            if (historicalProtocol && version > from && skip == 0) {
              out.line(lines.protocol((Protocol) a, version));
            }
            return true;
          }
          if (!selected(a, useCdc)) {
            return true;
          }
          long i = index[0]++;
          if (i < skip) {
            return true;
          }
          if (maxFiles != null && emitted == maxFiles) {
            next = Tokens.page(queryKey, pinned, version, i);
            return false;
          }
          FileAction f = (FileAction) a;
          negotiation.checkDeletionVector(f);
          out.line(lines.file(Lines.kindOf(a), f, signer, version, timestamp));
          emitted++;
          return true;
        } catch (IOException e) {
          failure[0] = e;
          return false;
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
    }
    ObjectNode end = Lines.JSON.createObjectNode();
    if (next != null) {
      end.put("nextPageToken", next);
    }
    if (emitted > 0) {
      end.put("minUrlExpirationTimestamp", signer.expiration);
    }
    out.finish(end);
  }

  private boolean hasCdc(long v) {
    boolean[] found = {false};
    log.visitActions(v, a -> !(found[0] = a instanceof CdcFile));
    return found[0];
  }

  private boolean selected(DeltaAction a, boolean useCdc) {
    if (useCdc) {
      return a instanceof CdcFile;
    }
    if (a instanceof AddFile) {
      return ((AddFile) a).dataChange;
    }
    return a instanceof RemoveFile && ((RemoveFile) a).dataChange;
  }
}
