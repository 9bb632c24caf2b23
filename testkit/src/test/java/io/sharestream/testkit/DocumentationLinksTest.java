package io.sharestream.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.docs.GeneratedDoc;
import io.sharestream.testkit.docs.Markdown;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's documentation ({@link Markdown#repositoryDocs}) links only to what exists: every relative link
 * (inline, reference-style, HTML) to a file or directory of the repository, every anchor to a heading or
 * {@code <a id>} of the Markdown file it points into (GitHub's anchors, compared case-insensitively), and every
 * repository path written as inline code (a {@code `soak/run-long.sh`}) to an existing path. Absolute URLs, code
 * blocks and inline code (but for those paths) are not links; anchors into other files than Markdown ({@code #L10})
 * are not checked.
 */
class DocumentationLinksTest {
  private static final Pattern ABSOLUTE = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*:|//).*");
  /** Inline code that is not a literal path: placeholders, globs, build output, commands and options. */
  private static final Pattern NOT_A_PATH = Pattern.compile(".*([\\s<>*${}?\\[\\]=,;:]|(^|/)target(/|$)).*");

  @TempDir Path tmp;

  @Test
  void everyRelativeLinkAndAnchorOfTheDocsResolves() {
    Path root = GeneratedDoc.repositoryRoot();
    List<Markdown> docs = Markdown.repositoryDocs(root);
    Checker checker = new Checker(root);
    List<String> problems = new ArrayList<>();
    docs.forEach(d -> problems.addAll(checker.brokenLinks(d)));

    assertThat(docs).extracting(d -> d.name).contains("README.md", "CHANGELOG.md", "docs/spark.md");
    assertThat(checker.relativeLinks).as("relative links checked").isGreaterThanOrEqualTo(30);
    assertThat(checker.anchors).as("anchors checked").isGreaterThanOrEqualTo(5);
    assertThat(problems).as("broken links in the docs").isEmpty();
  }

  @Test
  void everyRepositoryPathNamedAsInlineCodeExists() {
    Path root = GeneratedDoc.repositoryRoot();
    Checker checker = new Checker(root);
    List<String> problems = new ArrayList<>();
    Markdown.repositoryDocs(root).forEach(d -> problems.addAll(checker.missingPaths(d)));

    assertThat(checker.paths).as("paths checked").isGreaterThanOrEqualTo(10);
    assertThat(problems).as("paths named in the docs that do not exist").isEmpty();
  }

  @Test
  void aLinkToAMissingFileOrAnchorIsReported() throws IOException {
    Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(tmp.resolve("docs/other.md"), "# Other page\n\n## The `tables` setting\n");
    Files.createDirectories(tmp.resolve("kafka-connect/src/main"));
    Markdown readme = Markdown.of("README.md", String.join("\n",
        "# Title",
        "See [other](docs/other.md), [its setting](docs/other.md#the-tables-setting) and [the code](kafka-connect/src/main).",
        "Broken: [gone](docs/gone.md), [no anchor](docs/other.md#no-such-heading), [self](#nowhere),",
        "[source](kafka-connect/src/main/java/Missing.java) and [ref][missing-ref] and [def][d].",
        "",
        "[d]: docs/also-gone.md",
        "<a href=\"docs/html-gone.md\">html</a>"));

    assertThat(new Checker(tmp).brokenLinks(readme)).containsExactly(
        "README.md:3: [gone](docs/gone.md): docs/gone.md does not exist",
        "README.md:3: [no anchor](docs/other.md#no-such-heading): no heading of docs/other.md makes #no-such-heading",
        "README.md:3: [self](#nowhere): no heading of README.md makes #nowhere",
        "README.md:4: [source](kafka-connect/src/main/java/Missing.java): kafka-connect/src/main/java/Missing.java does "
            + "not exist",
        "README.md:4: [ref][missing-ref]: no definition of this reference",
        "README.md:4: [def][d]: docs/also-gone.md does not exist",
        "README.md:6: [d]: docs/also-gone.md: docs/also-gone.md does not exist",
        "README.md:7: <a href=\"docs/html-gone.md\": docs/html-gone.md does not exist");
  }

  @Test
  void linksInCodeAbsoluteUrlsAndExplicitAnchorsAreNotReported() throws IOException {
    Markdown doc = Markdown.of("docs/page.md", String.join("\n",
        "# Page",
        "<a id=\"custom-anchor\"></a>",
        "[web](https://example.com/x.md), [mail](mailto:a@example.com), [here](#page), [custom](#custom-anchor),",
        "[up](../README.md), [Case](#PAGE), `[inline](gone.md)` and ``[double `tick`](gone.md)``",
        "<!-- [commented](gone.md) -->",
        "```markdown",
        "[in a block](gone.md)",
        "```"));
    Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(tmp.resolve("README.md"), "# Readme\n");

    assertThat(new Checker(tmp).brokenLinks(doc)).isEmpty();
  }

  @Test
  void aLinkOutOfTheRepositoryIsReported() {
    Markdown doc = Markdown.of("README.md", "[issues](../../issues)\n");
    assertThat(new Checker(tmp).brokenLinks(doc))
        .containsExactly("README.md:1: [issues](../../issues): ../../issues is outside the repository");
  }

  @Test
  void aMissingRepositoryPathInInlineCodeIsReported() throws IOException {
    Files.createDirectories(tmp.resolve("soak"));
    Files.writeString(tmp.resolve("soak/run-long.sh"), "");
    Markdown doc = Markdown.of("README.md",
        "Run `soak/run-long.sh`, not `soak/run-short.sh`; `soak/target/x.jar`, `soak/<line>/` and `other/x` are "
            + "not checked.\n");
    Checker checker = new Checker(tmp);

    assertThat(checker.missingPaths(doc)).containsExactly("README.md:1: `soak/run-short.sh` does not exist");
    assertThat(checker.paths).isEqualTo(2);
  }

  /** Checks the links of documents of one repository; counts what it checked. */
  static final class Checker {
    private final Path root;
    private final Set<String> topLevel;
    private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();
    int relativeLinks;
    int anchors;
    int paths;

    Checker(Path root) {
      this.root = root.toAbsolutePath().normalize();
      try (Stream<Path> entries = Files.list(this.root)) {
        this.topLevel = entries.map(p -> p.getFileName().toString()).filter(n -> !n.equals(".git"))
            .collect(Collectors.toSet());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    /** "file:line: link: what is wrong" for each broken link of {@code doc}. */
    List<String> brokenLinks(Markdown doc) {
      List<String> problems = new ArrayList<>();
      Path file = root.resolve(doc.name);
      for (Markdown.Link link : doc.links()) {
        String problem = link.target == null ? "no definition of this reference" : problem(doc, file, link.target);
        if (problem != null) {
          problems.add(doc.name + ":" + link.line + ": " + link.source + ": " + problem);
        }
      }
      return problems;
    }

    /** "file:line: `path` does not exist" for each inline code naming a missing path under a top-level entry. */
    List<String> missingPaths(Markdown doc) {
      List<String> problems = new ArrayList<>();
      for (Markdown.CodeSpan span : doc.codeSpans()) {
        String p = span.content;
        if (p.contains("/") && topLevel.contains(p.substring(0, p.indexOf('/'))) && !NOT_A_PATH.matcher(p).matches()) {
          paths++;
          if (!Files.exists(root.resolve(p))) {
            problems.add(doc.name + ":" + span.line + ": `" + p + "` does not exist");
          }
        }
      }
      return problems;
    }

    private String problem(Markdown doc, Path file, String target) {
      if (ABSOLUTE.matcher(target).matches()) {
        return null;
      }
      relativeLinks++;
      int hash = target.indexOf('#');
      String path = decode(hash < 0 ? target : target.substring(0, hash)).replaceAll("\\?.*", "");
      String anchor = hash < 0 ? "" : decode(target.substring(hash + 1));
      Path resolved = path.isEmpty() ? file
          : (path.startsWith("/") ? root.resolve(path.substring(1)) : file.getParent().resolve(path)).normalize();
      if (!path.isEmpty()) {
        if (!resolved.startsWith(root)) {
          return path + " is outside the repository";
        }
        if (!Files.exists(resolved)) {
          return path + " does not exist";
        }
        if (!resolved.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md")
            || !Files.isRegularFile(resolved)) {
          return null;
        }
      }
      if (anchor.isEmpty()) {
        return null;
      }
      anchors++;
      Set<String> known = resolved.equals(file) ? doc.anchors()
          : anchorsByFile.computeIfAbsent(resolved, f -> Markdown.read(root, f).anchors());
      boolean found = known.stream().anyMatch(anchor::equalsIgnoreCase);
      return found ? null : "no heading of " + root.relativize(resolved).toString().replace('\\', '/') + " makes #" + anchor;
    }

    private static String decode(String s) {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
  }
}
