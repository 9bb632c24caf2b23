package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.ListedItem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * The items of a list endpoint ({@code /shares}, {@code .../schemas}, {@code .../tables}, {@code .../all-tables}),
 * fetched page by page as the iterator advances, following {@code nextPageToken} until it is missing or empty.
 */
final class ListPages implements Iterator<ListedItem> {
  /** Fetches the page with the given token (null: the first). */
  interface PageFetcher {
    JsonNode fetch(String pageToken);
  }

  private final PageFetcher fetcher;
  private final String what;
  private final Function<JsonNode, ListedItem> item;
  private final List<ListedItem> page = new ArrayList<>();
  private int next;
  private String token;
  private boolean done;

  ListPages(PageFetcher fetcher, String what, Function<JsonNode, ListedItem> item) {
    this.fetcher = fetcher;
    this.what = what;
    this.item = item;
  }

  @Override
  public boolean hasNext() {
    while (next >= page.size() && !done) {
      fetch();
    }
    return next < page.size();
  }

  @Override
  public ListedItem next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return page.get(next++);
  }

  private void fetch() {
    JsonNode body = fetcher.fetch(token);
    page.clear();
    next = 0;
    body.path("items").forEach(n -> page.add(item.apply(n)));
    String t = body.hasNonNull("nextPageToken") ? body.get("nextPageToken").asText() : "";
    if (t.isEmpty()) {
      done = true;
    } else if (t.equals(token)) {
      throw Errors.protocol(what, "the server returned the same nextPageToken twice");
    }
    token = t.isEmpty() ? null : t;
  }
}
