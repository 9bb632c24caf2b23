package io.sharestream.common.model;

/**
 * A data line of a query or changes response after its head: a {@link FileAction}, or a historical
 * {@link TableMetadata} or {@link ProtocolInfo}.
 */
public interface SharingAction {}
