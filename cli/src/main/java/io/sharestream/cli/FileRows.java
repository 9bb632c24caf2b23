package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import java.util.List;

/**
 * Reads planned files row by row, in plan order, through the core's {@link UnitReader} (deletion vectors applied,
 * rows labelled), handing each row to a visitor until it asks to stop: a file is opened only when its rows are
 * wanted, and left at the row that was the last one wanted.
 */
final class FileRows {
  private FileRows() {}

  /** Takes a row; answers whether more rows are wanted. */
  interface Visitor {
    boolean visit(WorkUnit unit, ChangeRow row);
  }

  /** The rows of a batch plan's {@code units} of {@code table}. */
  static void read(DeltaSharingClient client, TableRef table, List<WorkUnit> units, StreamSettings settings,
      Visitor visitor) {
    FileLister lister = new FileLister(client, table, settings.filesPerRequest());
    for (WorkUnit u : units) {
      if (!read(client, u, new UnitUrls(lister, u), settings.read(), visitor)) {
        return;
      }
    }
  }

  /** The rows of one unit; false when the visitor wanted no more. */
  static boolean read(DeltaSharingClient client, WorkUnit unit, UnitUrls urls, ReadSettings read, Visitor visitor) {
    try (UnitReader r = UnitReader.open(client, unit, urls, unit.schema(), read, 0)) {
      while (r.hasNext()) {
        if (!visitor.visit(unit, r.next())) {
          return false;
        }
      }
    }
    return true;
  }
}
