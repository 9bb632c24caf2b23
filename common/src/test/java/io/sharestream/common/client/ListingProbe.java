package io.sharestream.common.client;

import io.sharestream.common.model.SharingAction;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;

/** Run in a child JVM with a small heap: streams a whole listing and prints how many files it held. */
public final class ListingProbe {
  private ListingProbe() {}

  public static void main(String[] args) {
    DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(args[0]), ClientSettings.DEFAULT);
    long files = 0;
    try (FileListing l = client.query(TableRef.parse(args[1], "table"), QueryRequest.latest())) {
      while (l.hasNext()) {
        SharingAction a = l.next();
        if (a instanceof io.sharestream.common.model.FileAction) {
          files++;
        }
      }
    }
    Runtime rt = Runtime.getRuntime();
    System.out.println("files=" + files + " maxHeapMiB=" + rt.maxMemory() / (1024 * 1024));
  }
}
