package io.sharestream.common.client;

/**
 * What a request to the sharing server asks for, and so which protocol headers it carries: none for lists and the
 * table version; the response formats for metadata; for file listings also the {@code fileidhash} pin; and for a
 * query that may be answered asynchronously, {@code asyncquery=true}.
 */
enum AnswerKind {
  /** A JSON answer (lists) or the version header. */
  PLAIN,
  /** Protocol and metadata lines. */
  METADATA,
  /** File lines, with ids in the {@link DeltaSharingClient#FILE_ID_SCHEME} scheme. */
  FILES,
  /** File lines of a query the server may answer asynchronously. */
  ASYNC_FILES;

  boolean tableData() {
    return this != PLAIN;
  }

  boolean files() {
    return this == FILES || this == ASYNC_FILES;
  }
}
