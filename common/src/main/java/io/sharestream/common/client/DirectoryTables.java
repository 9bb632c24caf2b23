package io.sharestream.common.client;

import io.sharestream.common.deltalog.DeltaLog;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.TableAccess;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Which tables of a client are read by directory access, as {@link AccessSettings} and the server's metadata
 * answers say, with their {@link DirectoryTable}s. A table's access modes are learnt from every metadata answer, so a
 * table the provider moves between URL and directory access is read the new way from the next request on.
 */
final class DirectoryTables {
  private final DeltaSharingClient client;
  private final AccessSettings settings;
  private final Clock clock;
  /** What the server last said of each table's access modes. */
  private final Map<TableRef, TableAccess> offered = new ConcurrentHashMap<>();
  /** The directory readers made, with the access each was made for. */
  private final Map<TableRef, DirectoryTable> tables = new ConcurrentHashMap<>();
  private final Map<TableRef, TableAccess> madeFor = new ConcurrentHashMap<>();

  DirectoryTables(DeltaSharingClient client, AccessSettings settings, Clock clock) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
  }

  /** Takes note of the access modes a metadata answer gave for {@code table}. */
  void learned(TableRef table, TableAccess access) {
    offered.put(table, access);
  }

  /**
   * The table's directory reader when it is to be read by directory access ({@code dir} asked for, or offered
   * without URLs under {@code auto}), else null. Under {@code accessMode=dir} a table nothing was learnt of yet is
   * asked about ({@code ask}); otherwise it is read by URL until a metadata answer (every planner asks for one
   * first) says otherwise.
   */
  DirectoryTable directory(TableRef table, Supplier<TableAccess> ask) {
    AccessSettings.Mode mode = settings.mode();
    TableAccess a = offered.get(table);
    if (a == null) {
      if (mode != AccessSettings.Mode.DIR) {
        return null;
      }
      a = ask.get();
    }
    boolean urlOnlyRefused = !a.offers(TableAccess.Mode.URL) && a.offers(TableAccess.Mode.DIR);
    if (mode == AccessSettings.Mode.URL && urlOnlyRefused) {
      throw Errors.accessModeRefused(table.toString(), a, mode.toString());
    }
    if (mode == AccessSettings.Mode.URL || (mode == AccessSettings.Mode.AUTO && !urlOnlyRefused)) {
      return null;
    }
    if (!a.offers(TableAccess.Mode.DIR) || a.location() == null) {
      throw Errors.accessModeRefused(table.toString(), a, mode.toString());
    }
    DirectoryTable dir = tables.get(table);
    if (dir == null || !a.equals(madeFor.get(table))) {
      VendedStorage storage = new VendedStorage(client, table, a, settings.storage(), clock);
      dir = new DirectoryTable(table.toString(), new DeltaLog(new StorageLogFiles(client, storage,
          table.toString()), table.toString()), storage, client.settings().readerFeatures());
      tables.put(table, dir);
      madeFor.put(table, a);
    }
    return dir;
  }

  /**
   * After the server refused a request for {@code table} under {@code accessMode=auto}: the directory reader if its
   * metadata ({@code ask}) now says it is shared for directory access only, else null (the refusal stands).
   */
  DirectoryTable afterRefusal(TableRef table, Runnable ask) {
    if (settings.mode() != AccessSettings.Mode.AUTO) {
      return null;
    }
    TableAccess before = offered.get(table);
    ask.run();
    return before != null && before.equals(offered.get(table)) ? null : directory(table, () -> offered.get(table));
  }
}
