package io.sharestream.common.client;

import io.sharestream.common.deltalog.LogFile;
import io.sharestream.common.deltalog.LogFiles;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.storage.ObjectListingPage;
import io.sharestream.common.storage.SignedRequest;
import io.sharestream.common.storage.StorageLocation;
import io.sharestream.common.storage.StorageSigner;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.parquet.io.InputFile;

/**
 * A table's {@code _delta_log} in object storage, listed and read with requests signed by its
 * {@link VendedStorage}, over the client's transport (its proxies, trust, timeouts and retries).
 */
final class StorageLogFiles implements LogFiles {
  private final DeltaSharingClient client;
  private final VendedStorage storage;
  private final String table;
  private final StorageLocation log;

  StorageLogFiles(DeltaSharingClient client, VendedStorage storage, String table) {
    this.client = client;
    this.storage = storage;
    this.table = table;
    this.log = storage.root().resolve("_delta_log/");
  }

  @Override
  public Iterator<LogFile> list(String fromName) {
    return new Listing(fromName);
  }

  @Override
  public InputStream open(LogFile file) throws IOException {
    String what = "reading " + file.name() + " of " + table;
    return client.retrier().call(what, () -> {
      SignedRequest r = get(file.name());
      Answer a = client.storageGet(r.url(), null, what);
      if (a.status() != 200) {
        throw failure(a, what);
      }
      return client.storageBody(a);
    });
  }

  @Override
  public InputFile openParquet(LogFile file) {
    String name = file.name();
    return new HttpInputFile(client, new SignedUrl() {
      @Override
      public String current() {
        return storage.sign("_delta_log/" + name).url();
      }

      @Override
      public String refresh() {
        return current();
      }
    }, file.size(), "_delta_log/" + name + " of " + table);
  }

  private SignedRequest get(String name) {
    StorageLocation object = storage.root().resolve("_delta_log/" + name);
    return storage.signer(object).presignGet(object, java.time.Instant.now(), VendedStorage.URL_VALIDITY);
  }

  private RuntimeException failure(Answer a, String what) {
    int status = a.status();
    String body = Http.readSmall(a.body(), 4096);
    if (status == 429 || status >= 500) {
      return new TransientFailure("storage answered HTTP " + status, Http.retryAfter(a), null);
    }
    return Errors.storageRefused(table, what, status, body);
  }

  /** The log's entries from a name on, page by page. */
  private final class Listing implements Iterator<LogFile> {
    private final String fromName;
    private final Deque<LogFile> page = new ArrayDeque<>();
    private String token;
    private boolean done;

    Listing(String fromName) {
      this.fromName = fromName;
    }

    @Override
    public boolean hasNext() {
      while (page.isEmpty() && !done) {
        readPage();
      }
      return !page.isEmpty();
    }

    @Override
    public LogFile next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return page.removeFirst();
    }

    private void readPage() {
      String what = "listing the _delta_log of " + table;
      ObjectListingPage p = client.retrier().call(what, () -> {
        StorageSigner signer = storage.signer(log);
        // keys after the one just before fromName: fromName itself (or a longer name) comes first
        String startAfter = fromName.isEmpty() ? null : log.key() + fromName.substring(0, fromName.length() - 1);
        SignedRequest r = signer.presignList(log, token == null ? startAfter : null, token, java.time.Instant.now());
        Answer a = client.storageGet(r.url(), null, what);
        if (a.status() != 200) {
          throw failure(a, what);
        }
        try (InputStream body = client.storageBody(a)) {
          return signer.parseList(body);
        }
      });
      for (ObjectListingPage.Entry e : p.entries()) {
        if (!e.key().startsWith(log.key())) {
          continue;
        }
        String name = e.key().substring(log.key().length());
        if (!name.isEmpty() && name.indexOf('/') < 0 && name.compareTo(fromName) >= 0) {
          page.add(new LogFile(name, e.size(), e.lastModified()));
        }
      }
      token = p.nextToken();
      done = !p.hasMore();
    }
  }
}
