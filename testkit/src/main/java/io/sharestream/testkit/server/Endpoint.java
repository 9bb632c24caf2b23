package io.sharestream.testkit.server;

/** The kinds of request the server answers; faults and the request log are keyed by them. */
public enum Endpoint {
  LIST_SHARES, GET_SHARE, LIST_SCHEMAS, LIST_TABLES, LIST_ALL_TABLES,
  VERSION, METADATA, QUERY, CHANGES,
  /** Polls of an asynchronous query: {@code POST .../tables/{t}/queries/{queryId}}. */
  QUERY_STATUS,
  /** Pre-signed file downloads. */
  STORAGE,
  /** {@code POST .../tables/{t}/temporary-table-credentials}: credentials for directory-based access. */
  TEMPORARY_CREDENTIALS,
  /** The S3-compatible object store of directory-based access ({@link ObjectStore}): object reads and listings. */
  OBJECT_STORE,
  /** The OAuth client-credentials token endpoint. */
  OAUTH_TOKEN,
  /** Anything that did not match a route. */
  UNKNOWN
}
