package io.sharestream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The demo as a user runs it, shortened: the connector in a real Connect worker from its plugin directory and the
 * Spark 3.1.1 driver in its own JVM, on a table receiving appends, an UPDATE and a DELETE; both sides' rows must be
 * exactly the committed ones, and nothing may be left behind.
 */
class DemoTest {
  @Test
  void bothEnginesDeliverExactlyTheCommittedChangesAndTheDemoCleansUp() throws Exception {
    Demo.Settings s = Demo.Settings.parse("--commits", "8", "--commit-every", "1", "--mode", "readChangeFeed",
        "--plugin-dir", "../kafka-connect/target", "--spark-dir", "spark/target");
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream out = System.out;
    Demo demo = new Demo(s);
    boolean exact;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      exact = demo.run();
    } finally {
      demo.close();
      System.setOut(out);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    assertTrue(exact, "the summary must find both sides exact");
    assertTrue(printed.contains("update: refunded"), "the run must include an UPDATE");
    assertTrue(printed.contains("delete: erased"), "the run must include a DELETE");
    assertTrue(printed.matches("(?s).*\\[summary] kafka: \\d+ rows \\{delete=\\d+, insert=\\d+, update_postimage=\\d+, "
        + "update_preimage=\\d+}.*-> EXACT.*"), "Kafka saw every change type");
    assertTrue(printed.matches("(?s).*\\[summary] spark: \\d+ rows \\{delete=\\d+, insert=\\d+, update_postimage=\\d+, "
        + "update_preimage=\\d+}.*-> EXACT.*"), "Spark saw every change type");
    assertTrue(printed.contains("top buyers"), "the document's skipChangeCommits aggregation ran");
    java.util.regex.Matcher listening = java.util.regex.Pattern.compile("\\[summary] spark: the driver listens on "
        + "\\[([^]]*)]").matcher(printed);
    if (Files.isDirectory(java.nio.file.Path.of("/proc/self/fd"))) {
      assertTrue(listening.find(), "the driver's listening sockets are printed");
      assertFalse(listening.group(1).isEmpty(), "the driver listens (its RPC and block manager)");
      for (String address : listening.group(1).split(", ")) {
        assertTrue(address.startsWith("127.0.0.1:"), "the demo's Spark listens on loopback only: " + address);
      }
    }
    assertFalse(printed.contains("instead (on interface"), "Spark looked past loopback for its address");
    assertFalse(Files.exists(demo.workDir()), "the demo's directory is removed");
  }

  @Test
  void badFlagsAreRefusedNamingTheFlag() {
    assertEquals("--mode must be default, skipChangeCommits or readChangeFeed",
        assertThrows(IllegalArgumentException.class, () -> Demo.Settings.parse("--mode", "all")).getMessage());
    assertEquals("--seconds must be a positive number, not '0'",
        assertThrows(IllegalArgumentException.class, () -> Demo.Settings.parse("--seconds", "0")).getMessage());
    assertEquals("--only must be kafka or spark",
        assertThrows(IllegalArgumentException.class, () -> Demo.Settings.parse("--only", "flink")).getMessage());
  }
}
