package io.sharestream.testkit.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Azurite, Microsoft's Azure Storage emulator, its Blob service in a process of its own on 127.0.0.1, in memory:
 * a real server for what the client does with Azure (SAS-signed reads and List Blobs). Installed with {@code npm}
 * on first use into {@code ~/.cache/sharestream/azurite-<version>} (or {@code -Dazurite.dir}); needs Node.js on the
 * {@code PATH} ({@link #nodeAvailable()}). It serves the well-known development account {@value #ACCOUNT}; this class
 * creates containers, uploads a directory's files as blobs and signs container SAS tokens with the account's key.
 */
public final class Azurite implements AutoCloseable {
  /** The version installed: pinned, so every build runs the same emulator. */
  public static final String VERSION = "3.35.0";
  /** The development account Azurite serves. */
  public static final String ACCOUNT = "devstoreaccount1";
  /** The development account's documented key (public: Azurite's own documentation gives it). */
  private static final byte[] KEY = Base64.getDecoder().decode(
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
  /** The service version SAS tokens are signed for. */
  private static final String SAS_VERSION = "2021-08-06";
  private static final DateTimeFormatter SAS_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
      .withZone(ZoneOffset.UTC);

  private final Process process;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  /** What was uploaded, by blob URL: the file's size and modification time then. */
  private final Map<String, String> uploaded = new ConcurrentHashMap<>();

  private Azurite(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Whether {@code node} runs here. */
  public static boolean nodeAvailable() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Starts Azurite's Blob service on a free port of 127.0.0.1, installing it first if it is not yet. */
  public static Azurite start() {
    Path main = install();
    IllegalStateException failure = null;
    for (int attempt = 0; attempt < 3; attempt++) { // the free port may be taken before Azurite binds it
      int port = freePort();
      Path log;
      Process p;
      try {
        log = Files.createTempFile("azurite", ".log");
        log.toFile().deleteOnExit();
        p = new ProcessBuilder("node", main.toString(), "--blobHost", "127.0.0.1", "--blobPort",
            String.valueOf(port), "--inMemoryPersistence", "--silent", "--skipApiVersionCheck",
            "--disableProductStyleUrl", "--disableTelemetry").redirectErrorStream(true).redirectOutput(log.toFile())
            .start();
      } catch (IOException e) {
        throw new UncheckedIOException("Azurite did not start", e);
      }
      Azurite azurite = new Azurite(p, port);
      if (azurite.awaitListening(Duration.ofSeconds(60))) {
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
        return azurite;
      }
      p.destroyForcibly();
      failure = new IllegalStateException("Azurite did not listen on 127.0.0.1:" + port + "; its output:\n"
          + read(log));
    }
    throw failure;
  }

  /** The Blob service endpoint with {@code {account}} for the account: the client's {@code azureBlobEndpoint}. */
  public String endpointTemplate() {
    return "http://127.0.0.1:" + port + "/{account}";
  }

  /** The location of {@code prefix} in {@code container}: {@code abfss://<container>@<account>.dfs...}. */
  public static String location(String container, String prefix) {
    return "abfss://" + container + "@" + ACCOUNT + ".dfs.core.windows.net/" + prefix;
  }

  /** Creates {@code container} (private: every request needs a signature). */
  public void createContainer(String container) {
    String sas = accountSas("rwdlac", "sco", Instant.now().plus(1, ChronoUnit.HOURS));
    send(HttpRequest.newBuilder(URI.create(base() + "/" + container + "?restype=container&" + sas))
        .PUT(HttpRequest.BodyPublishers.noBody()), 201);
  }

  /**
   * Uploads the files under {@code dir} as blobs {@code <prefix>/<relative path>} of {@code container}: those not
   * uploaded yet or changed since (size or modification time), so a table written on after an upload is mirrored by
   * calling it again. Returns the number uploaded.
   */
  public int mirror(Path dir, String container, String prefix) {
    String sas = containerSas(container, "racwl", Instant.now().plus(1, ChronoUnit.HOURS));
    List<Path> files;
    try (Stream<Path> all = Files.walk(dir)) {
      files = all.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int n = 0;
    for (Path f : files) {
      String name = prefix + "/" + dir.relativize(f).toString().replace('\\', '/');
      String url = base() + "/" + container + "/" + encodePath(name);
      try {
        String stamp = Files.size(f) + "@" + Files.getLastModifiedTime(f).toMillis();
        if (stamp.equals(uploaded.get(url))) {
          continue;
        }
        send(HttpRequest.newBuilder(URI.create(url + "?" + sas)).header("x-ms-blob-type", "BlockBlob")
            .PUT(HttpRequest.BodyPublishers.ofFile(f)), 201);
        uploaded.put(url, stamp);
        n++;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return n;
  }

  /**
   * A service SAS for {@code container} ({@code sr=c}) with {@code permissions} (e.g. {@code rl}: read and list),
   * valid until {@code expiry} (to the second), signed with the account key; without a leading {@code ?}.
   */
  public static String containerSas(String container, String permissions, Instant expiry) {
    String se = SAS_TIME.format(expiry);
    String stringToSign = String.join("\n", permissions, "", se, "/blob/" + ACCOUNT + "/" + container, "", "", "",
        SAS_VERSION, "c", "", "", "", "", "", "", "");
    return "sv=" + SAS_VERSION + "&sr=c&sp=" + permissions + "&se=" + encode(se) + "&sig="
        + encode(sign(stringToSign));
  }

  private static String accountSas(String permissions, String resourceTypes, Instant expiry) {
    String se = SAS_TIME.format(expiry);
    String stringToSign = String.join("\n", ACCOUNT, permissions, "b", resourceTypes, "", se, "", "", SAS_VERSION,
        "", "");
    return "sv=" + SAS_VERSION + "&ss=b&srt=" + resourceTypes + "&sp=" + permissions + "&se=" + encode(se) + "&sig="
        + encode(sign(stringToSign));
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private String base() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  private void send(HttpRequest.Builder request, int expected) {
    try {
      HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(60)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != expected) {
        throw new IllegalStateException("Azurite answered " + r.statusCode() + " to " + r.request().method() + " "
            + r.request().uri().getPath() + ": " + r.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private boolean awaitListening(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline && process.isAlive()) {
      try {
        http.send(HttpRequest.newBuilder(URI.create(base() + "?comp=list")).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.discarding());
        return true; // any answer: it listens
      } catch (IOException e) {
        sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  /**
   * The Blob service's entry script, installed by {@code npm} under a lock (builds running side by side share the
   * installation): in {@code -Dazurite.dir}, else {@code ~/.cache/sharestream}, else the temporary directory.
   */
  private static Path install() {
    Path dir = installDir();
    Path main = dir.resolve("node_modules/azurite/dist/src/blob/main.js");
    try {
      Files.createDirectories(dir);
      try (FileChannel lock = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock held = lock.lock()) {
        if (Files.isRegularFile(main)) {
          return main;
        }
        Path log = dir.resolve("npm-install.log");
        for (int attempt = 0; attempt < 2 && !Files.isRegularFile(main); attempt++) { // once more after a hiccup
          Process npm = new ProcessBuilder("npm", "install", "--prefix", dir.toString(), "--no-audit", "--no-fund",
              "--ignore-scripts", "--loglevel=error", "azurite@" + VERSION).redirectErrorStream(true)
              .redirectOutput(log.toFile()).start();
          if (!npm.waitFor(10, TimeUnit.MINUTES)) {
            npm.destroyForcibly();
          }
        }
        if (!Files.isRegularFile(main)) {
          throw new IllegalStateException("npm could not install azurite@" + VERSION + " into " + dir
              + " (Azure tests need Node.js and npm's registry); npm said:\n" + read(log));
        }
        return main;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not install Azurite into " + dir, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path installDir() {
    String chosen = System.getProperty("azurite.dir");
    if (chosen != null) {
      return Paths.get(chosen);
    }
    String name = "azurite-" + VERSION;
    Path home = Paths.get(System.getProperty("user.home"), ".cache", "sharestream", name);
    try {
      return Files.createDirectories(home);
    } catch (IOException e) { // a home that cannot be written
      return Paths.get(System.getProperty("java.io.tmpdir"), "sharestream-" + name);
    }
  }

  private static String sign(String stringToSign) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String encode(String s) {
    return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String encodePath(String path) {
    List<String> parts = new ArrayList<>();
    for (String segment : path.split("/", -1)) {
      parts.add(encode(segment));
    }
    return String.join("/", parts);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path log) {
    try {
      String s = Files.readString(log);
      return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
