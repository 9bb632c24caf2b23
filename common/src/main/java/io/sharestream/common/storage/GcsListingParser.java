package io.sharestream.common.storage;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.sharestream.common.errors.Errors;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Google Cloud Storage JSON API objects.list answer ({@code {"kind": "storage#objects", ...}}), streaming:
 * each of {@code items}' {@code name}, {@code size} (a string in the API) and {@code updated} (RFC 3339), and
 * {@code nextPageToken}; other fields ({@code prefixes}, object metadata) are skipped.
 */
public final class GcsListingParser {
  static final String STORE = "Google Cloud Storage";
  private static final JsonFactory JSON = new JsonFactory();

  private GcsListingParser() {}

  /** The page {@code body} holds; the stream is read to the object's end, not closed. */
  public static ObjectListingPage parse(InputStream body) throws IOException {
    JsonParser p = JSON.createParser(body);
    p.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw Errors.unreadableStorageListing(STORE, "the answer is not a JSON object");
      }
      List<ObjectListingPage.Entry> entries = new ArrayList<>();
      String next = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.getCurrentName();
        JsonToken value = p.nextToken();
        if (field.equals("items") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() != JsonToken.END_ARRAY) {
            if (entries.size() == Listings.MAX_ENTRIES) {
              throw Errors.unreadableStorageListing(STORE, "a page holds more than " + Listings.MAX_ENTRIES
                  + " objects");
            }
            entries.add(item(p));
          }
        } else if (field.equals("nextPageToken") && value == JsonToken.VALUE_STRING) {
          next = p.getText();
        } else if (field.equals("error")) {
          throw Errors.unreadableStorageListing(STORE, "it is an error answer");
        } else {
          p.skipChildren();
        }
      }
      return new ObjectListingPage(entries, next);
    } catch (JsonProcessingException e) {
      throw Errors.unreadableStorageListing(STORE, Errors.describe(e));
    } finally {
      p.close();
    }
  }

  private static ObjectListingPage.Entry item(JsonParser p) throws IOException {
    if (p.getCurrentToken() != JsonToken.START_OBJECT) {
      throw Errors.unreadableStorageListing(STORE, "an item of the listing is not an object");
    }
    String name = null;
    String size = null;
    String updated = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.getCurrentName();
      JsonToken value = p.nextToken();
      if (value.isScalarValue() && value != JsonToken.VALUE_NULL
          && (field.equals("name") || field.equals("size") || field.equals("updated"))) {
        String text = p.getText();
        if (text.length() > Listings.MAX_TEXT) {
          throw Errors.unreadableStorageListing(STORE, "an item's " + field + " holds more than "
              + Listings.MAX_TEXT + " characters");
        }
        if (field.equals("name")) {
          name = text;
        } else if (field.equals("size")) {
          size = text;
        } else {
          updated = text;
        }
      } else {
        p.skipChildren();
      }
    }
    if (name == null || size == null) {
      throw Errors.unreadableStorageListing(STORE, "an item of the listing has no " + (name == null ? "name"
          : "size"));
    }
    return new ObjectListingPage.Entry(name, Listings.number(size, "size", STORE),
        updated == null ? -1 : Listings.epochMillis(updated, "updated", STORE));
  }
}
