package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar {@code mvn package} builds, run as a user runs it: {@code java -jar} in a child process whose class path
 * is the jar alone, the profile from {@code SHARESTREAM_PROFILE}; and the wrapper script next to it.
 */
class PackagedJarIT {
  private static final String JAR = System.getProperty("cli.jar");
  private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  @TempDir
  static Path tmp;
  static DeltaSharingServer server;
  static String profile;

  @BeforeAll
  static void serve() {
    server = DeltaSharingServer.builder().table("s", "sc", "t", Fixtures.orders(tmp.resolve("t")).dir(), true)
        .start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Starts {@code command} with the profile in its environment, its stderr to a file ({@link #err()} reads it). */
  private Process start(List<String> command) throws IOException {
    ProcessBuilder b = new ProcessBuilder(command).redirectError(tmp.resolve("stderr.txt").toFile());
    b.environment().put("SHARESTREAM_PROFILE", profile);
    return b.start();
  }

  private String err() throws IOException {
    return Files.readString(tmp.resolve("stderr.txt"));
  }

  private Process sharestream(String... args) throws IOException {
    List<String> command = new java.util.ArrayList<>(List.of(JAVA, "-jar", JAR));
    command.addAll(List.of(args));
    return start(command);
  }

  private static String read(java.io.InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void theJarAloneReadsASharedTableWithTheProfileFromTheEnvironment() throws Exception {
    Process p = sharestream("head", "s.sc.t", "--version", "1", "-n", "1");

    String out = read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(err()).isEmpty();
    assertThat(p.exitValue()).isZero();
    assertThat(out).isEqualTo("{\"id\":1,\"name\":\"a\",\"price\":1.50,\"day\":\"2024-01-01\","
        + "\"at\":\"2024-01-01T10:00:00.123456Z\"}\n");
  }

  @Test
  void tailEndsCleanlyWhenItsProcessIsAskedToStop() throws Exception {
    Process p = sharestream("tail", "s.sc.t", "--starting-version", "1", "--poll-interval", "100ms");
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));

    assertThat(out.readLine()).startsWith("{\"version\":1,\"index\":0,\"row\":{\"id\":1,");
    p.destroy(); // SIGTERM: the shutdown hook runs, as on Ctrl-C (SIGINT)

    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(err().lines()).allMatch(l -> l.startsWith("sharestream: Change commit ")); // hints, no error
    assertThat(p.exitValue()).isEqualTo(143);
  }

  @Test
  void tailEndsAsSoonAsThePipeItWritesToIsClosedWhileTheTableIsIdle() throws Exception {
    // as `sharestream tail T | head -2`: the rows fit the pipe, then nothing is written for a minute
    Process p = sharestream("tail", "s.sc.t", "--starting-version", "1", "--poll-interval", "60s");
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).startsWith("{\"version\":1,");
    assertThat(out.readLine()).startsWith("{\"version\":1,");

    p.getInputStream().close(); // the pipe's only reader ends, as head does after its lines

    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("ended without a write to the closed pipe").isTrue();
    assertThat(p.exitValue()).isEqualTo(Failures.OUTPUT_CLOSED);
    assertThat(err().lines()).allMatch(l -> l.startsWith("sharestream: Change commit ")); // hints, no error
  }

  @Test
  void theProxyVariablesOfTheEnvironmentAreHonouredAsCurlHonoursThem() throws Exception {
    io.sharestream.testkit.net.TestCertificates certificates = io.sharestream.testkit.net.TestCertificates.create();
    try (DeltaSharingServer tls = DeltaSharingServer.builder().tls(certificates)
        .table("s", "sc", "t", Fixtures.orders(tmp.resolve("tls-t")).dir(), true).start();
        io.sharestream.testkit.net.ForwardProxy proxy = io.sharestream.testkit.net.ForwardProxy.withBasicAuth(
            "proxy-user", "proxy-secret-42")) {
      String tlsProfile = tls.writeProfile(tmp.resolve("tls.share")).toString();
      String ca = certificates.writeCaPem(tmp.resolve("ca.pem")).toString();
      for (String noProxy : new String[] {null, "127.0.0.1"}) {
        ProcessBuilder b = new ProcessBuilder(JAVA, "-jar", JAR, "shares", "--profile", tlsProfile, "--ca-cert", ca)
            .redirectError(tmp.resolve("stderr.txt").toFile());
        b.environment().put("https_proxy", "http://proxy-user:proxy-secret-42@127.0.0.1:" + proxy.port());
        if (noProxy != null) {
          b.environment().put("NO_PROXY", noProxy);
        }
        int before = proxy.requests().size();
        Process p = b.start();
        String out = read(p.getInputStream());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(err()).isEmpty();
        assertThat(out).isEqualTo("s\n");
        if (noProxy == null) {
          assertThat(proxy.requests().subList(before, proxy.requests().size())).as("through https_proxy")
              .anyMatch(r -> r.allowed && r.target.equals("127.0.0.1:" + tls.port()));
        } else {
          assertThat(proxy.requests()).as("NO_PROXY names the server").hasSize(before);
        }
      }
    }
  }

  @Test
  void theWrapperScriptRunsTheJarNextToIt() throws Exception {
    Path wrapper = Path.of(JAR).getParent().getParent().resolve("sharestream");
    Process p = start(List.of(wrapper.toString(), "shares"));

    String out = read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(err()).isEmpty();
    assertThat(p.exitValue()).isZero();
    assertThat(out).isEqualTo("s\n");
  }

  @Test
  void theWrapperScriptLinkedOntoThePathFindsItsFolderAndTakesTheRunnableJar() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("install/target"));
    Path script = Files.copy(Path.of(JAR).getParent().getParent().resolve("sharestream"),
        tmp.resolve("install/sharestream"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
    Files.copy(Path.of(JAR), home.resolve("sharestream-cli-1.0.jar"));
    Files.writeString(home.resolve("sharestream-cli-1.0-sources.jar"), "not runnable"); // sorts first by name
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("sharestream"), Path.of("../install/sharestream"));

    Process p = start(List.of(bin.resolve("sharestream").toString(), "shares"));

    String out = read(p.getInputStream());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(err()).isEmpty();
    assertThat(p.exitValue()).isZero();
    assertThat(out).isEqualTo("s\n");
    assertThat(script).isExecutable();
  }
}
