package io.sharestream.testkit.server;

import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.FileAction;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import java.util.Set;
import java.util.TreeSet;

/**
 * The reference server's answer to a request's {@code delta-sharing-capabilities}: the response format (one requested
 * format is answered as is; of several, parquet only for a table of reader version 1 when parquet is among them,
 * else delta; none requested means parquet) and the reader features the client declared, which a table with deletion
 * vectors ({@code deletionvectors}) or column mapping ({@code columnmapping}) needs.
 */
final class Negotiation {
  static final String DELETION_VECTORS = "deletionvectors";
  static final String COLUMN_MAPPING = "columnmapping";

  final boolean delta;
  private final Set<String> readerFeatures;

  private Negotiation(boolean delta, Set<String> readerFeatures) {
    this.delta = delta;
    this.readerFeatures = readerFeatures;
  }

  static Negotiation of(Request req, Protocol protocol, Faults.Rule fault) {
    Set<String> features = req.capabilities.getOrDefault("readerfeatures", Set.of());
    if (fault != null && fault.kind == Faults.Kind.DELTA_FORMAT) {
      return new Negotiation(true, features);
    }
    Set<String> formats = req.capabilities.getOrDefault("responseformat", Set.of("parquet"));
    boolean delta = formats.size() == 1 ? formats.contains("delta")
        : formats.contains("delta") && !(protocol.minReaderVersion == 1 && formats.contains("parquet"));
    return new Negotiation(delta, features);
  }

  /** The reader features a table's properties make a client need: none for a table without DVs or mapping. */
  static Set<String> neededFeatures(Metadata m) {
    Set<String> needed = new TreeSet<>();
    if (m.deletionVectorsEnabled()) {
      needed.add(DELETION_VECTORS);
    }
    if (m.columnMappingEnabled()) {
      needed.add(COLUMN_MAPPING);
    }
    return needed;
  }

  /** Whether the answer is in delta format with every feature the table's properties need declared. */
  boolean reads(Metadata m) {
    return delta && readerFeatures.containsAll(neededFeatures(m));
  }

  boolean readsDeletionVectors() {
    return readerFeatures.contains(DELETION_VECTORS);
  }

  /** Refuses a file carrying a deletion vector to a client that did not declare {@code deletionvectors}. */
  void checkDeletionVector(FileAction f) {
    if (!readsDeletionVectors() && deletionVector(f) != null) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Deletion Vector property disabled");
    }
  }

  static DeletionVectorDescriptor deletionVector(FileAction f) {
    if (f instanceof AddFile) {
      return ((AddFile) f).deletionVector;
    }
    return f instanceof RemoveFile ? ((RemoveFile) f).deletionVector : null;
  }
}
