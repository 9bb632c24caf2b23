package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.FileAction;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;

/**
 * Renders protocol, metadata and file actions as response lines in either response format: {@code parquet}
 * (protocol "API Response Actions in Parquet Format") or {@code delta} (the Delta log action wrapped, its path
 * replaced by a pre-signed URL, a stored deletion vector by its file's pre-signed URL as storage type {@code p}).
 */
final class Lines {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The line's file kind in parquet format. */
  enum Kind {
    FILE("file"), ADD("add"), REMOVE("remove"), CDF("cdf");

    final String key;

    Kind(String key) {
      this.key = key;
    }
  }

  private final boolean delta;
  private final boolean deletionVectorFileIds;
  private final String fileIdHash;
  private final boolean view;
  private final ObjectNode accessFields;

  /**
   * Lines in delta format when {@code delta}, file lines then with {@code deletionVectorFileId} if asked for; file ids
   * by the {@code fileidhash} scheme asked for ({@code parquet}: MD5, {@code delta}: SHA-256 of the path; null: the
   * response format's own); a {@code view}'s metaData line without its change data feed; metaData lines with
   * {@code accessFields} ({@code location}, {@code auxiliaryLocations}, {@code accessModes}) when not null.
   */
  Lines(boolean delta, boolean deletionVectorFileIds, String fileIdHash, boolean view, ObjectNode accessFields) {
    this.delta = delta;
    this.deletionVectorFileIds = deletionVectorFileIds;
    this.fileIdHash = fileIdHash;
    this.view = view;
    this.accessFields = accessFields;
  }

  String format() {
    return delta ? "delta" : "parquet";
  }

  ObjectNode protocol(Protocol p) {
    return protocol(p, null);
  }

  /**
   * A protocol line; in delta format stamped with the table {@code version} it takes effect at when not null (the
   * answer to {@code includeHistoricalProtocol}), which the parquet format has no place for.
   */
  ObjectNode protocol(Protocol p, Long version) {
    ObjectNode body = JSON.createObjectNode();
    if (delta) {
      if (version != null) {
        body.put("version", version);
      }
      ObjectNode deltaProtocol = (ObjectNode) p.toJson().get("protocol");
      if (p.readerFeatures != null && p.readerFeatures.isEmpty()) {
        deltaProtocol.remove("readerFeatures");
      }
      body.set("deltaProtocol", deltaProtocol);
    } else {
      body.put("minReaderVersion", 1);
    }
    return wrap("protocol", body);
  }

  /** A metaData line; {@code version} is added when not null, {@code size} and {@code numFiles} from
   *  {@code sizes} ({size, numFiles}) when not null. A view's has an empty configuration in parquet format, and in
   *  delta format the table's without {@code delta.enableChangeDataFeed} (column mapping must stay readable). */
  ObjectNode metadata(Metadata m, boolean historyShared, Long version, long[] sizes) {
    ObjectNode body = JSON.createObjectNode();
    if (delta) {
      ObjectNode deltaMetadata = (ObjectNode) m.toJson().get("metaData");
      if (view && deltaMetadata.has("configuration")) {
        ((ObjectNode) deltaMetadata.get("configuration")).remove("delta.enableChangeDataFeed");
      }
      body.set("deltaMetadata", deltaMetadata);
    } else {
      body.put("id", m.id);
      if (m.name != null) {
        body.put("name", m.name);
      }
      if (m.description != null) {
        body.put("description", m.description);
      }
      body.putObject("format").put("provider", "parquet");
      body.put("schemaString", m.schemaString);
      body.set("partitionColumns", JSON.valueToTree(m.partitionColumns));
      ObjectNode conf = body.putObject("configuration");
      if (historyShared && !view && m.changeDataFeedEnabled()) {
        conf.put("enableChangeDataFeed", "true");
      }
    }
    if (version != null) {
      body.put("version", version);
    }
    if (sizes != null) {
      body.put("size", sizes[0]);
      body.put("numFiles", sizes[1]);
    }
    if (accessFields != null) { // inside metaData in parquet format, beside deltaMetadata in delta format
      body.setAll(accessFields);
    }
    return wrap("metaData", body);
  }

  /** A file line: {@code version}/{@code timestamp} are added when not null. */
  ObjectNode file(Kind kind, FileAction f, SignedFiles signer, Long version, Long timestamp) {
    String url = signer.url(f.path);
    if (delta) {
      ObjectNode body = JSON.createObjectNode();
      body.put("id", fileId(f.path));
      ObjectNode action = (ObjectNode) f.toJson().elements().next();
      action.put("path", url);
      DeletionVectorDescriptor dv = Negotiation.deletionVector(f);
      if (dv != null && DeletionVectorDescriptor.STORED.equals(dv.storageType)) {
        ObjectNode signed = dv.toJson();
        signed.put("storageType", DeletionVectorDescriptor.ABSOLUTE);
        signed.put("pathOrInlineDv", signer.url(dv.relativePath()));
        action.set("deletionVector", signed);
      }
      if (dv != null && !dv.isInline() && deletionVectorFileIds) {
        body.put("deletionVectorFileId", FileUrls.sha256(dv.uniqueId()));
      }
      if (version != null) {
        body.put("version", version);
      }
      if (timestamp != null) {
        body.put("timestamp", timestamp);
      }
      body.put("expirationTimestamp", signer.expiration);
      String actionKey = kind == Kind.CDF ? "cdc" : kind == Kind.REMOVE ? "remove" : "add";
      body.putObject("deltaSingleAction").set(actionKey, action);
      return wrap("file", body);
    }
    ObjectNode body = JSON.createObjectNode();
    body.put("url", url);
    body.put("id", fileId(f.path));
    ObjectNode partitionValues = body.putObject("partitionValues");
    f.partitionValues.forEach(partitionValues::put);
    body.put("size", f.size);
    if (f instanceof AddFile && ((AddFile) f).stats != null) {
      body.put("stats", ((AddFile) f).stats);
    }
    if (version != null) {
      body.put("version", version);
    }
    if (timestamp != null) {
      body.put("timestamp", timestamp);
    }
    body.put("expirationTimestamp", signer.expiration);
    return wrap(kind.key, body);
  }

  /** A file's id: SHA-256 hex of its log path in the delta scheme, MD5 hex in the parquet one. */
  private String fileId(String path) {
    boolean sha256 = fileIdHash == null ? delta : fileIdHash.equals("delta");
    return sha256 ? FileUrls.sha256(path) : FileUrls.fileId(path);
  }

  static Kind kindOf(DeltaAction a) {
    if (a instanceof AddFile) {
      return Kind.ADD;
    }
    return a instanceof RemoveFile ? Kind.REMOVE : Kind.CDF;
  }

  private static ObjectNode wrap(String key, ObjectNode body) {
    ObjectNode n = JSON.createObjectNode();
    n.set(key, body);
    return n;
  }
}
