package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.docs.GeneratedDoc;
import io.sharestream.testkit.docs.Markdown;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every read of the source in the docs' code blocks ({@link DocumentedReads}) names only options the source knows
 * ({@link DeltaSharingOptions#OPTIONS} and {@code path}, in any case). No Spark session: cheap on every Spark line
 * that runs the shared tests.
 */
class DocumentedOptionsTest {
  @Test
  void everyOptionOfTheDocumentedReadsIsAnOptionOfTheSource() {
    List<DocumentedReads.Read> reads = new ArrayList<>();
    Markdown.repositoryDocs(GeneratedDoc.repositoryRoot()).forEach(d -> reads.addAll(DocumentedReads.inMarkdown(d)));

    assertThat(reads).as("reads of the source in the docs").hasSizeGreaterThanOrEqualTo(4);
    assertThat(reads.stream().mapToInt(r -> r.options.size()).sum()).as("options named").isGreaterThanOrEqualTo(8);
    assertThat(unknownOptions(reads)).as("unknown options in the docs' reads").isEmpty();
  }

  @Test
  void anUnknownOptionOfAChainIsReportedWithItsLine() {
    Markdown doc = Markdown.of("docs/x.md", String.join("\n",
        "```python",
        "profile = {\"endpoint\": \"https://x\", \"bearerTokn\": token}",
        "df = (spark.readStream.format(\"deltaSharing\")",
        "      .option(\"startingVersion\", \"1\")  # a comment",
        "      .option(\"STARTINGVERSOIN\", \"1\")",
        "      .options(**profile)",
        "      .options(maxFilesPerTrigger=\"10\", maxFilesPerTriger=\"10\")",
        "      .load(\"s.sc.t\"))",
        "df.writeStream.format(\"parquet\").option(\"checkpointLocation\", \"/c\").start()",
        "spark.read.format(\"parquet\").option(\"mergeSchema\", \"true\").load(\"/p\")",
        "```",
        "```scala",
        "spark.read",
        "  .format(\"sharestream\")",
        "  .options(Map(\"versionAsOf\" -> \"1\", \"versionAt\" -> \"1\"))",
        "  .load(path)",
        "```",
        "```java",
        "spark.readStream().format(\"deltaSharing\").option(\"ignoreDeletes\", \"true\").option(\"skipChangeCommit\", \"true\")",
        "    .load(path);",
        "```"));

    assertThat(unknownOptions(DocumentedReads.inMarkdown(doc))).containsExactly(
        "docs/x.md:5: unknown option 'STARTINGVERSOIN'",
        "docs/x.md:2: unknown option 'bearerTokn'",
        "docs/x.md:7: unknown option 'maxFilesPerTriger'",
        "docs/x.md:15: unknown option 'versionAt'",
        "docs/x.md:19: unknown option 'skipChangeCommit'");
  }

  @Test
  void sqlOptionsAndReadsOfCatalogTablesAreChecked() {
    Markdown doc = Markdown.of("docs/y.md", String.join("\n",
        "```sql",
        "CREATE TABLE events USING deltaSharing LOCATION 'p#s.sc.t';",
        "CREATE TABLE changes USING sharestream LOCATION 's.sc.t'",
        "  OPTIONS (endpoint 'https://x', 'bearerToken' '...', readChangeFeeds 'true');",
        "CREATE TABLE other USING parquet OPTIONS (compression 'zstd');",
        "```",
        "",
        "```python",
        "spark.readStream.option(\"maxFilesPerTrigger\", \"1\").option(\"maxFile\", \"1\").table(\"events\")",
        "spark.readStream.option(\"whatever\", \"1\").table(\"other\")",
        "```"));
    List<DocumentedReads.Read> reads = DocumentedReads.inMarkdown(doc);

    assertThat(reads).extracting(r -> r.where).containsExactly("docs/y.md:2", "docs/y.md:3", "docs/y.md:9");
    assertThat(unknownOptions(reads)).containsExactly("docs/y.md:4: unknown option 'readChangeFeeds'",
        "docs/y.md:9: unknown option 'maxFile'");
  }

  /** "file:line: unknown option 'name'" for each option of {@code reads} the source does not know. */
  private static List<String> unknownOptions(List<DocumentedReads.Read> reads) {
    Set<String> known = new TreeSet<>();
    known.add(DeltaSharingOptions.PATH.toLowerCase(Locale.ROOT));
    DeltaSharingOptions.OPTIONS.forEach(o -> known.add(o.name.toLowerCase(Locale.ROOT)));
    List<String> unknown = new ArrayList<>();
    for (DocumentedReads.Read r : reads) {
      for (DocumentedReads.Option o : r.options) {
        if (!known.contains(o.name.toLowerCase(Locale.ROOT))) {
          unknown.add(o.where + ": unknown option '" + o.name + "'");
        }
      }
    }
    return unknown;
  }
}
