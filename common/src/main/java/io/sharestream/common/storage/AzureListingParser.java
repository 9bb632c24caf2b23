package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.ProtocolViolationException;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads an Azure List Blobs answer ({@code <EnumerationResults>}): each {@code <Blob>}'s {@code Name} and its
 * properties {@code Content-Length} and {@code Last-Modified} (RFC 1123), and {@code NextMarker}. Directories of a
 * hierarchical namespace ({@code <ResourceType>directory}), deleted blobs and {@code <BlobPrefix>} entries are left
 * out; names sent {@code Encoded="true"} are decoded.
 */
public final class AzureListingParser {
  static final String STORE = "Azure Blob Storage";

  private AzureListingParser() {}

  /** The page {@code body} holds; the stream is read to the root's end, not closed. */
  public static ObjectListingPage parse(InputStream body) throws IOException {
    try {
      XMLStreamReader r = Listings.open(body, STORE, "EnumerationResults");
      List<ObjectListingPage.Entry> entries = new ArrayList<>();
      String next = null;
      while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </EnumerationResults>
        if (!r.isStartElement()) {
          continue;
        }
        if (r.getLocalName().equals("Blobs")) {
          while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </Blobs>
            if (!r.isStartElement()) {
              continue;
            }
            if (r.getLocalName().equals("Blob")) {
              ObjectListingPage.Entry e = blob(r);
              if (e != null) {
                if (entries.size() == Listings.MAX_ENTRIES) {
                  throw Errors.unreadableStorageListing(STORE, "a page holds more than " + Listings.MAX_ENTRIES
                      + " blobs");
                }
                entries.add(e);
              }
            } else {
              Listings.skip(r); // BlobPrefix
            }
          }
        } else if (r.getLocalName().equals("NextMarker")) {
          next = Listings.text(r, STORE);
        } else {
          Listings.skip(r);
        }
      }
      return new ObjectListingPage(entries, next);
    } catch (XMLStreamException e) {
      throw Errors.unreadableStorageListing(STORE, "it is not well-formed XML (" + e.getMessage() + ")");
    }
  }

  /** The blob {@code r} is on, or null for a directory or a deleted blob. */
  private static ObjectListingPage.Entry blob(XMLStreamReader r) throws XMLStreamException {
    String name = null;
    String length = null;
    String modified = null;
    boolean skip = false;
    while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </Blob>
      if (!r.isStartElement()) {
        continue;
      }
      switch (r.getLocalName()) {
        case "Name":
          boolean encoded = "true".equalsIgnoreCase(r.getAttributeValue(null, "Encoded"));
          name = Listings.text(r, STORE);
          if (encoded) {
            try {
              name = UriCodec.decode(name, name);
            } catch (ProtocolViolationException e) {
              throw Errors.unreadableStorageListing(STORE, "an encoded blob name is malformed: '" + name + "'");
            }
          }
          break;
        case "Deleted":
          skip |= "true".equalsIgnoreCase(Listings.text(r, STORE).trim());
          break;
        case "Properties":
          while (r.next() != XMLStreamConstants.END_ELEMENT) { // to </Properties>
            if (!r.isStartElement()) {
              continue;
            }
            switch (r.getLocalName()) {
              case "Content-Length":
                length = Listings.text(r, STORE);
                break;
              case "Last-Modified":
                modified = Listings.text(r, STORE).trim();
                break;
              case "ResourceType":
                skip |= "directory".equalsIgnoreCase(Listings.text(r, STORE).trim());
                break;
              default:
                Listings.skip(r);
            }
          }
          break;
        default:
          Listings.skip(r);
      }
    }
    if (name == null || (length == null && !skip)) {
      throw Errors.unreadableStorageListing(STORE, "a blob of the listing has no " + (name == null ? "Name"
          : "Content-Length"));
    }
    return skip ? null : new ObjectListingPage.Entry(name, Listings.number(length, "Content-Length", STORE),
        modified == null ? -1 : rfc1123(modified));
  }

  /** An RFC 1123 time ({@code Wed, 09 Sep 2009 09:20:02 GMT}) in epoch milliseconds. */
  private static long rfc1123(String time) {
    try {
      return ZonedDateTime.parse(time, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw Errors.unreadableStorageListing(STORE, "Last-Modified is not an RFC 1123 time: '" + time + "'");
    }
  }
}
