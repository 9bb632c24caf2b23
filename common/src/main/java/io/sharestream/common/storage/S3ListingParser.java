package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads an S3 ListObjectsV2 answer ({@code <ListBucketResult>}): each {@code <Contents>}' {@code Key}, {@code Size}
 * and {@code LastModified}, and {@code NextContinuationToken} while {@code IsTruncated}. Keys of an answer with
 * {@code <EncodingType>url</EncodingType>} are decoded.
 */
public final class S3ListingParser {
  static final String STORE = "Amazon S3";

  private S3ListingParser() {}

  /** The page {@code body} holds; the stream is read to the root's end, not closed. */
  public static ObjectListingPage parse(InputStream body) throws IOException {
    try {
      XMLStreamReader r = Listings.open(body, STORE, "ListBucketResult");
      List<String[]> contents = new ArrayList<>(); // key, size, last modified: decoded at the end (EncodingType)
      boolean truncated = false;
      String next = null;
      boolean urlEncoded = false;
      while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </ListBucketResult>
        if (!r.isStartElement()) {
          continue;
        }
        switch (r.getLocalName()) {
          case "Contents":
            if (contents.size() == Listings.MAX_ENTRIES) {
              throw Errors.unreadableStorageListing(STORE, "a page holds more than " + Listings.MAX_ENTRIES
                  + " objects");
            }
            contents.add(contents(r));
            break;
          case "IsTruncated":
            truncated = Boolean.parseBoolean(Listings.text(r, STORE).trim());
            break;
          case "NextContinuationToken":
            next = Listings.text(r, STORE);
            break;
          case "EncodingType":
            urlEncoded = Listings.text(r, STORE).trim().equalsIgnoreCase("url");
            break;
          default:
            Listings.skip(r);
        }
      }
      if (truncated && (next == null || next.isEmpty())) {
        throw Errors.unreadableStorageListing(STORE, "the answer is truncated but has no NextContinuationToken (a "
            + "ListObjects version 1 answer?)");
      }
      List<ObjectListingPage.Entry> entries = new ArrayList<>(contents.size());
      for (String[] c : contents) {
        entries.add(new ObjectListingPage.Entry(urlEncoded ? formDecode(c[0]) : c[0],
            Listings.number(c[1], "Size", STORE),
            c[2] == null ? -1 : Listings.epochMillis(c[2], "LastModified", STORE)));
      }
      return new ObjectListingPage(entries, truncated ? next : null);
    } catch (XMLStreamException e) {
      throw Errors.unreadableStorageListing(STORE, "it is not well-formed XML (" + e.getMessage() + ")");
    }
  }

  private static String[] contents(XMLStreamReader r) throws XMLStreamException {
    String[] c = new String[3];
    while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </Contents>
      if (!r.isStartElement()) {
        continue;
      }
      switch (r.getLocalName()) {
        case "Key":
          c[0] = Listings.text(r, STORE);
          break;
        case "Size":
          c[1] = Listings.text(r, STORE);
          break;
        case "LastModified":
          c[2] = Listings.text(r, STORE).trim();
          break;
        default:
          Listings.skip(r);
      }
    }
    if (c[0] == null || c[1] == null) {
      throw Errors.unreadableStorageListing(STORE, "an object of the listing has no " + (c[0] == null ? "Key"
          : "Size"));
    }
    return c;
  }

  /** S3's url encoding-type: percent-escapes, and '+' for a space. */
  private static String formDecode(String key) {
    try {
      return URLDecoder.decode(key, "UTF-8");
    } catch (UnsupportedEncodingException | IllegalArgumentException e) {
      throw Errors.unreadableStorageListing(STORE, "a url-encoded key is malformed: '" + key + "'");
    }
  }
}
