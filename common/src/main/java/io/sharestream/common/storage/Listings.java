package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import java.io.InputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What the listing parsers share: streaming XML reads (no DTD, no external entity, texts of bounded length), numbers
 * and times.
 */
final class Listings {
  /** The longest text kept of an element: keys are at most 1,024 bytes, tokens shorter. */
  static final int MAX_TEXT = 16 * 1024;
  /** The most entries a page may hold: stores answer 1,000 (S3) or 5,000 (Azure) at most. */
  static final int MAX_ENTRIES = 100_000;
  private static final XMLInputFactory FACTORY = factory();

  private Listings() {}

  private static XMLInputFactory factory() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    return f;
  }

  /** A reader of {@code body} positioned on its root element, which must be {@code root}. */
  static XMLStreamReader open(InputStream body, String store, String root) throws XMLStreamException {
    XMLStreamReader r = FACTORY.createXMLStreamReader(body);
    while (r.hasNext() && r.next() != XMLStreamConstants.START_ELEMENT) {
      // prolog: declaration, comments, white space
    }
    if (!r.isStartElement()) {
      throw Errors.unreadableStorageListing(store, "the answer holds no XML element");
    }
    if (!r.getLocalName().equals(root)) {
      throw Errors.unreadableStorageListing(store, "its root element is <" + r.getLocalName() + ">, not <" + root
          + ">");
    }
    return r;
  }

  /** The text of the element {@code r} is on (its start), leaving {@code r} on its end; child elements are refused. */
  static String text(XMLStreamReader r, String store) throws XMLStreamException {
    String name = r.getLocalName();
    StringBuilder b = new StringBuilder();
    while (true) {
      int e = r.next();
      switch (e) {
        case XMLStreamConstants.CHARACTERS:
        case XMLStreamConstants.CDATA:
        case XMLStreamConstants.SPACE:
          if (b.length() + r.getTextLength() > MAX_TEXT) {
            throw Errors.unreadableStorageListing(store, "<" + name + "> holds more than " + MAX_TEXT
                + " characters");
          }
          b.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
          break;
        case XMLStreamConstants.END_ELEMENT:
          return b.toString();
        case XMLStreamConstants.START_ELEMENT:
          throw Errors.unreadableStorageListing(store, "<" + name + "> holds an element where a value is expected");
        default:
          break; // comments, processing instructions
      }
    }
  }

  /** Moves {@code r} past the end of the element it is on (the start of), whatever it holds. */
  static void skip(XMLStreamReader r) throws XMLStreamException {
    int depth = 1;
    while (depth > 0) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
  }

  /** An ISO 8601 time ({@code 2009-10-12T17:50:30.000Z}, or with an offset) in epoch milliseconds. */
  static long epochMillis(String time, String element, String store) {
    try {
      return Instant.parse(time).toEpochMilli();
    } catch (DateTimeParseException notUtc) {
      try {
        return OffsetDateTime.parse(time).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        throw Errors.unreadableStorageListing(store, element + " is not an ISO 8601 time: '" + time + "'");
      }
    }
  }

  static long number(String value, String element, String store) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw Errors.unreadableStorageListing(store, "<" + element + "> is not a number: '" + value + "'");
    }
  }
}
