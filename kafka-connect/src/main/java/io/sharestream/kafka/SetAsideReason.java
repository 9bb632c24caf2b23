package io.sharestream.kafka;

import io.sharestream.common.errors.AccessDeniedException;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.HistoryNotSharedException;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.errors.TableRecreatedException;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.errors.VersionNotAvailableException;

/**
 * Why a task stopped reading one of its tables while it goes on with the others: what the provider did, and what
 * brings the table back. The provider's actions set a table aside; nothing the user wrote does (that is refused by
 * validation, or fails the task).
 */
enum SetAsideReason {
  /** The server no longer shares it (HTTP 404). */
  NOT_SHARED("is no longer shared (HTTP 404)", "a share's table discovery drops it once the share no longer lists "
      + "it; a table named in " + DeltaSharingSourceConfig.TABLES + " is read again by a task restart once shared "
      + "again, or remove it from " + DeltaSharingSourceConfig.TABLES),
  /** The server denies this recipient the table (HTTP 403), its credentials being accepted. */
  ACCESS_DENIED("is denied to this recipient (HTTP 403)", "ask the provider to grant it again and restart the task, "
      + "or exclude it with " + DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX),
  /** It cannot be streamed: history not shared, a view, a feature this reader lacks, a format it does not read. */
  UNREADABLE("cannot be streamed", "ask the provider to share its history (a view cannot be streamed), or exclude "
      + "it with " + DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX + "; a task restart tries it again"),
  /** Where it starts or resumes is no longer served (its log was cleaned up, or it is shared from later). */
  VERSION_UNAVAILABLE("starts at a version the server no longer serves", "set "
      + DeltaSharingSourceConfig.STARTING_OVERRIDES + "=<table>=earliest (a table without stored offsets) or "
      + DeltaSharingSourceConfig.STARTING_UNAVAILABLE_MODE + "=earliest to go on from the earliest version served, "
      + "or move its offset with PATCH /connectors/<name>/offsets"),
  /** It was dropped and created again: its stored offsets are the old table's. */
  RECREATED("was recreated (its id changed)", "reset its offset: stop the connector, PATCH "
      + "/connectors/<name>/offsets with its partition and a null offset, and resume (it starts as "
      + DeltaSharingSourceConfig.STARTING_OVERRIDES + " or startingVersion say)");

  private final String what;
  private final String fix;

  SetAsideReason(String what, String fix) {
    this.what = what;
    this.fix = fix;
  }

  /** What happened to the table, e.g. "is no longer shared (HTTP 404)". */
  String what() {
    return what;
  }

  /** What brings the table back. */
  String fix() {
    return fix;
  }

  /** The reason {@code e} (or a cause) sets a table aside; null when it does not (the task handles it). */
  static SetAsideReason of(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TableNotFoundException) {
        return NOT_SHARED;
      }
      if (t instanceof AccessDeniedException) {
        return ACCESS_DENIED;
      }
      if (t instanceof HistoryNotSharedException || t instanceof UnsupportedTableFeatureException
          || t instanceof DeltaFormatRequiredException) {
        return UNREADABLE;
      }
      if (t instanceof VersionNotAvailableException) {
        return VERSION_UNAVAILABLE;
      }
      if (t instanceof TableRecreatedException) {
        return RECREATED;
      }
    }
    return null;
  }
}
