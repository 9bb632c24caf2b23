package io.sharestream.common.client;

import io.sharestream.common.deltalog.LogFile;
import io.sharestream.common.deltalog.LogFiles;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.storage.ObjectListingPage;
import io.sharestream.common.storage.SignedRequest;
import io.sharestream.common.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
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
  /** When a refusal of each object was last retried with new credentials (at most once a minute per object). */
  private final java.util.Map<String, Long> renewed = new java.util.concurrent.ConcurrentHashMap<>();

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
    StorageLocation object = storage.root().resolve("_delta_log/" + file.name());
    return client.retrier().call(what, () -> {
      Answer a = client.storageGet(UrlHeaders.attach(storage.presignGet(object)), null, what);
      if (a.status() != 200) {
        throw failure(a, what, object);
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

  /**
   * What a refusal of {@code object} means: 429 and 5xx are retried; a refusal for expiry (S3's 400 ExpiredToken, 403
   * "Request has expired") is retried with credentials vended anew; another 400, 401 or 403 (revoked?) is retried so
   * at most once a minute per object, and fails if the new credentials are refused too.
   */
  private RuntimeException failure(Answer a, String what, StorageLocation object) {
    int status = a.status();
    String body = Http.readSmall(a.body(), 4096);
    if (status == 429 || status >= 500) {
      return new TransientFailure("storage answered HTTP " + status, Http.retryAfter(a), null);
    }
    if ((status == 400 || status == 403) && body.toLowerCase(java.util.Locale.ROOT).contains("expired")) {
      storage.renew(object); // the credentials or the signature outlived: sign with new ones (never a revocation)
      return new TransientFailure("storage refused expired credentials (HTTP " + status + ")", Duration.ZERO, null);
    }
    long now = System.nanoTime();
    Long last = renewed.get(object.toString());
    if ((status == 400 || status == 401 || status == 403)
        && (last == null || now - last > java.util.concurrent.TimeUnit.MINUTES.toNanos(1))) {
      renewed.put(object.toString(), now);
      storage.renew(object);
      return new TransientFailure("storage refused the credentials (HTTP " + status + ")", Duration.ZERO, null);
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
        // keys after the one just before fromName: fromName itself (or a longer name) comes first
        String startAfter = fromName.isEmpty() ? null : log.key() + fromName.substring(0, fromName.length() - 1);
        SignedRequest r = storage.presignList(log, token == null ? startAfter : null, token);
        Answer a = client.storageGet(UrlHeaders.attach(r), null, what);
        if (a.status() != 200) {
          throw failure(a, what, log);
        }
        try (InputStream body = client.storageBody(a)) {
          return storage.signer(log).parseList(body);
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
