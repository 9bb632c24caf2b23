package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaAction.Protocol;
import java.util.ArrayList;
import java.util.List;

/** The protocol versions and table features Delta Lake 3.2 gives a table for the features it uses. */
final class Protocols {
  /** Writer features implied by legacy writer versions 2 to 6, in version order. */
  private static final List<List<String>> LEGACY_WRITER_FEATURES = List.of(
      List.of("appendOnly", "invariants"), List.of("checkConstraints"), List.of("changeDataFeed", "generatedColumns"),
      List.of("columnMapping"), List.of("identityColumns"));

  /** The variant type's table feature (reader and writer). */
  static final String VARIANT_TYPE = "variantType";

  private Protocols() {}

  /** A new table's protocol: (1,2), (1,4) with the change data feed, (2,5) with column mapping, or (3,7) with DVs. */
  static Protocol of(boolean changeDataFeed, boolean deletionVectors, boolean columnMapping) {
    if (deletionVectors) {
      List<String> reader = new ArrayList<>(List.of("deletionVectors"));
      List<String> writer = new ArrayList<>(List.of("deletionVectors"));
      if (columnMapping) {
        reader.add("columnMapping");
        writer.add("columnMapping");
      }
      if (changeDataFeed) {
        writer.add("changeDataFeed");
      }
      return new Protocol(3, 7, reader, writer);
    }
    if (columnMapping) {
      return new Protocol(2, 5, null, null);
    }
    return new Protocol(1, changeDataFeed ? 4 : 2, null, null);
  }

  /**
   * {@code p} upgraded to support {@code feature} as a writer feature, and as a reader feature too when
   * {@code readerFeature} (then reader version 3); features the legacy versions implied are listed explicitly.
   */
  static Protocol withFeature(Protocol p, String feature, boolean readerFeature) {
    List<String> writer = new ArrayList<>();
    if (p.writerFeatures != null) {
      writer.addAll(p.writerFeatures);
    } else {
      for (int v = 2; v <= Math.min(p.minWriterVersion, 6); v++) {
        writer.addAll(LEGACY_WRITER_FEATURES.get(v - 2));
      }
    }
    if (!writer.contains(feature)) {
      writer.add(feature);
    }
    if (!readerFeature) {
      return new Protocol(p.minReaderVersion, 7, p.readerFeatures, writer);
    }
    List<String> reader = new ArrayList<>();
    if (p.readerFeatures != null) {
      reader.addAll(p.readerFeatures);
    } else if (p.minReaderVersion == 2) {
      reader.add("columnMapping");
    }
    if (!reader.contains(feature)) {
      reader.add(feature);
    }
    return new Protocol(3, 7, reader, writer);
  }
}
