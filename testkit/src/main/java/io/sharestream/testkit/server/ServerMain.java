package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the test server standalone, for demos and manual checks:
 *
 * <pre>
 * java -cp ... io.sharestream.testkit.server.ServerMain --port 8080 --token secret --config tables.json \
 *     [--profile out.share] [--url-ttl-seconds 3600] [--credential-ttl-seconds 3600] [--bind 0.0.0.0] \
 *     [--public-url http://sharing:8080]
 * </pre>
 *
 * {@code --bind} is the address to listen on (default the loopback address); {@code --public-url} the base URL that
 * clients reach the server at, which the written profile and the pre-signed file URLs then carry (default
 * {@code http://127.0.0.1:<port>}): e.g. in a container, {@code --port 8080 --bind 0.0.0.0 --public-url
 * http://sharing:8080} for the other containers of its network.
 *
 * {@code tables.json}: {@code {"tables": [{"name": "share.schema.table", "location": "/path/to/delta/table",
 * "history": true, "accessModes": ["url", "dir"]}], "shareIds": {"share": "<id>"}, "historyInDeltaFormat": true}}
 * ({@code history} and {@code historyInDeltaFormat} default to true, shares have no id unless given one, tables no
 * access modes (url only, not advertised); see {@link DeltaSharingServer.Builder#historyInDeltaFormat} and
 * {@link DeltaSharingServer.Builder#accessModes}). Tables with {@code dir} access are read from the
 * {@link ObjectStore} at the server's own address with the credentials vended, valid for
 * {@code --credential-ttl-seconds}.
 */
public final class ServerMain {
  private ServerMain() {}

  public static void main(String[] args) throws Exception {
    DeltaSharingServer server;
    try {
      server = start(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println("usage: ServerMain --config tables.json [--port 0] [--token T] [--profile out.share] "
          + "[--url-ttl-seconds 3600] [--credential-ttl-seconds 3600] [--bind ADDRESS] "
          + "[--public-url http(s)://HOST[:PORT]]");
      System.exit(2);
      return;
    }
    System.out.println("Delta Sharing test server listening at " + server.endpoint());
    Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    new CountDownLatch(1).await();
  }

  /** Parses the arguments and starts the server (separate from {@link #main} for tests). */
  public static DeltaSharingServer start(String[] args) throws IOException {
    DeltaSharingServer.Builder b = DeltaSharingServer.builder();
    Path config = null;
    Path profile = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + arg);
      }
      String value = args[++i];
      switch (arg) {
        case "--port": b.port(Integer.parseInt(value)); break;
        case "--token": b.bearerToken(value); break;
        case "--config": config = Path.of(value); break;
        case "--profile": profile = Path.of(value); break;
        case "--url-ttl-seconds": b.urlTtl(Duration.ofSeconds(Long.parseLong(value))); break;
        case "--credential-ttl-seconds": b.credentialTtl(Duration.ofSeconds(Long.parseLong(value))); break;
        case "--bind": b.bindAddress(value); break;
        case "--public-url": b.publicUrl(value); break;
        default: throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (config == null) {
      throw new IllegalArgumentException("--config is required");
    }
    JsonNode root = Lines.JSON.readTree(Files.readAllBytes(config));
    for (TableEntry t : readTables(config, root)) {
      b.table(t.share, t.schema, t.table, t.location, t.history);
      if (t.accessModes != null) {
        b.accessModes(t.share + "." + t.schema + "." + t.table, t.accessModes);
      }
    }
    root.path("shareIds").fields().forEachRemaining(e -> b.shareId(e.getKey(), e.getValue().asText()));
    b.historyInDeltaFormat(root.path("historyInDeltaFormat").asBoolean(true));
    DeltaSharingServer server = b.start();
    if (profile != null) {
      server.writeProfile(profile);
    }
    return server;
  }

  private static List<TableEntry> readTables(Path file, JsonNode root) {
    List<TableEntry> out = new ArrayList<>();
    for (JsonNode t : root.path("tables")) {
      String name = t.path("name").asText("");
      String[] parts = name.split("\\.");
      if (parts.length != 3) {
        throw new IllegalArgumentException("table name '" + name + "' in " + file + " must be share.schema.table");
      }
      if (!t.hasNonNull("location")) {
        throw new IllegalArgumentException("table " + name + " in " + file + " has no location");
      }
      Path location = Path.of(t.get("location").asText());
      Path base = file.toAbsolutePath().getParent();
      AccessMode[] modes = null;
      if (t.has("accessModes")) {
        if (!t.get("accessModes").isArray()) {
          throw new IllegalArgumentException("accessModes of table " + name + " in " + file + " must be an array");
        }
        modes = new AccessMode[t.get("accessModes").size()];
        for (int i = 0; i < modes.length; i++) {
          modes[i] = AccessMode.of(t.get("accessModes").get(i).asText());
        }
      }
      out.add(new TableEntry(parts[0], parts[1], parts[2], base.resolve(location), t.path("history").asBoolean(true),
          modes));
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(file + " lists no tables");
    }
    return out;
  }

  private static final class TableEntry {
    final String share;
    final String schema;
    final String table;
    final Path location;
    final boolean history;
    final AccessMode[] accessModes;

    TableEntry(String share, String schema, String table, Path location, boolean history, AccessMode[] accessModes) {
      this.share = share;
      this.schema = schema;
      this.table = table;
      this.location = location;
      this.history = history;
      this.accessModes = accessModes;
    }
  }
}
