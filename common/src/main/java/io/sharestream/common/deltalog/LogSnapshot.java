package io.sharestream.common.deltalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A Delta table at one version: its protocol, its metadata and its live files ({@code add} actions), replayed from
 * a checkpoint and the commits after it. The commits after the checkpoint are held; the checkpoint's files are
 * streamed from its Parquet (or JSON) files and sidecars when {@link #files()} is read, those the later commits
 * removed or re-added left out. A file is identified as Delta identifies it: its path and its deletion vector.
 */
public final class LogSnapshot {
  private final DeltaLog log;
  private final long version;
  private final List<LogFile> checkpoint;
  /** The later commits' files by key: the add that stands, or null where the file was removed. */
  private final Map<String, ObjectNode> tail = new LinkedHashMap<>();
  private final List<LogFile> sidecars = new ArrayList<>();
  private ObjectNode protocol;
  private ObjectNode metadata;

  LogSnapshot(DeltaLog log, long version, List<LogFile> checkpoint, List<LogFile> tailCommits) {
    this.log = log;
    this.version = version;
    this.checkpoint = checkpoint == null ? Collections.<LogFile>emptyList() : checkpoint;
    for (LogFile commit : tailCommits) {
      Iterator<ObjectNode> lines = log.lines(commit);
      while (lines.hasNext()) {
        ObjectNode a = lines.next();
        if (a.has("add")) {
          tail.put(key(a.get("add")), (ObjectNode) a.get("add"));
        } else if (a.has("remove")) {
          tail.put(key(a.get("remove")), null);
        } else if (a.has("metaData")) {
          metadata = (ObjectNode) a.get("metaData");
        } else if (a.has("protocol")) {
          protocol = (ObjectNode) a.get("protocol");
        }
      }
    }
    readCheckpointHead();
    if (protocol == null || metadata == null) {
      throw Errors.logUnreadable(log.table(), "version " + version + " has no " + (protocol == null ? "protocol"
          : "metaData") + " action in its checkpoint or commits");
    }
  }

  public long version() {
    return version;
  }

  /** The {@code protocol} action in force (its JSON object). */
  public ObjectNode protocol() {
    return protocol;
  }

  /** The {@code metaData} action in force (its JSON object). */
  public ObjectNode metadata() {
    return metadata;
  }

  /**
   * The live files: each an {@code add} action's JSON object, in no particular order, read as they are asked for.
   * Close the iterator (it is {@link Closeable}) if it is not read to its end.
   */
  public Iterator<ObjectNode> files() {
    return new Files();
  }

  /** Delta's key of a file: its path and the unique id of its deletion vector. */
  static String key(JsonNode action) {
    JsonNode dv = action.path("deletionVector");
    String dvId = dv.isObject() ? dv.path("storageType").asText() + dv.path("pathOrInlineDv").asText()
        + (dv.hasNonNull("offset") ? "@" + dv.get("offset").asText() : "") : "";
    return action.path("path").asText() + '\u0000' + dvId;
  }

  /** The checkpoint's protocol, metadata (where no later commit changed them) and sidecars. */
  private void readCheckpointHead() {
    for (LogFile f : checkpoint) {
      if (f.name().endsWith(".json")) {
        Iterator<ObjectNode> lines = log.lines(f);
        while (lines.hasNext()) {
          head(lines.next());
        }
      } else {
        try (ParquetRowReader rows = parquet(f, CheckpointSchemas.HEAD)) {
          while (rows.hasNext()) {
            head(RowJson.of(rows.next()));
          }
        }
      }
    }
  }

  private void head(ObjectNode a) {
    if (protocol == null && a.has("protocol")) {
      protocol = (ObjectNode) a.get("protocol");
    } else if (metadata == null && a.has("metaData")) {
      metadata = (ObjectNode) a.get("metaData");
    } else if (a.has("sidecar")) {
      JsonNode s = a.get("sidecar");
      String path = s.path("path").asText();
      String name = path.substring(path.lastIndexOf('/') + 1);
      sidecars.add(new LogFile("_sidecars/" + decode(name), s.path("sizeInBytes").asLong(),
          s.path("modificationTime").asLong()));
    }
  }

  private ParquetRowReader parquet(LogFile f, StructType schema) {
    try {
      return ParquetRowReader.open(log.files().openParquet(f), f.name(), schema, Collections.<String>emptyList(),
          Collections.<String, String>emptyMap(), ReadSettings.DEFAULT, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + f.name() + " of " + log.table() + ": " + e.getMessage(), e);
    }
  }

  private static String decode(String s) {
    try {
      return java.net.URLDecoder.decode(s.replace("+", "%2B"), "UTF-8");
    } catch (java.io.UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The checkpoint's adds (its files, then its sidecars) less what later commits changed, then theirs. */
  private final class Files implements Iterator<ObjectNode>, Closeable {
    private final Deque<LogFile> sources = new ArrayDeque<>();
    private Iterator<ObjectNode> current;
    private Closeable open;
    private Iterator<ObjectNode> tailAdds;
    private ObjectNode next;

    Files() {
      sources.addAll(checkpoint);
      sources.addAll(sidecars);
    }

    @Override
    public boolean hasNext() {
      while (next == null) {
        if (current != null && current.hasNext()) {
          ObjectNode add = current.next();
          if (current == tailAdds || !tail.containsKey(key(add))) {
            next = add;
          }
        } else if (!sources.isEmpty()) {
          closeOpen();
          current = adds(sources.removeFirst());
        } else if (tailAdds == null) {
          closeOpen();
          List<ObjectNode> standing = new ArrayList<>();
          for (ObjectNode a : tail.values()) {
            if (a != null) {
              standing.add(a);
            }
          }
          tailAdds = standing.iterator();
          current = tailAdds;
        } else {
          return false;
        }
      }
      return true;
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ObjectNode n = next;
      next = null;
      return n;
    }

    /** The add actions of one checkpoint file or sidecar. */
    private Iterator<ObjectNode> adds(LogFile f) {
      if (f.name().endsWith(".json")) {
        Iterator<ObjectNode> lines = log.lines(f);
        open = (Closeable) lines;
        return new Adds(lines);
      }
      final ParquetRowReader rows = parquet(f, CheckpointSchemas.FILES);
      open = rows;
      return new Adds(new Iterator<ObjectNode>() {
        @Override
        public boolean hasNext() {
          return rows.hasNext();
        }

        @Override
        public ObjectNode next() {
          return RowJson.of(rows.next());
        }
      });
    }

    private void closeOpen() {
      if (open != null) {
        try {
          open.close();
        } catch (IOException e) {
          // the file was read; nothing is lost by a failed close
        }
        open = null;
      }
    }

    @Override
    public void close() {
      closeOpen();
      sources.clear();
      tailAdds = Collections.<ObjectNode>emptyIterator();
      current = null;
    }
  }

  /** The {@code add} objects among a file's actions. */
  private static final class Adds implements Iterator<ObjectNode> {
    private final Iterator<ObjectNode> actions;
    private ObjectNode next;

    Adds(Iterator<ObjectNode> actions) {
      this.actions = actions;
    }

    @Override
    public boolean hasNext() {
      while (next == null && actions.hasNext()) {
        JsonNode add = actions.next().get("add");
        if (add instanceof ObjectNode) {
          next = (ObjectNode) add;
        }
      }
      return next != null;
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ObjectNode n = next;
      next = null;
      return n;
    }
  }
}
