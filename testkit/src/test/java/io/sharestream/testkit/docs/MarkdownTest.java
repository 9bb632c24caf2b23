package io.sharestream.testkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Markdown} finds what GitHub renders: anchors as GitHub makes them, code blocks, code spans and links. */
class MarkdownTest {
  @Test
  void slugsAreGitHubs() {
    assertThat(Markdown.slug("Deletion vectors and column mapping")).isEqualTo("deletion-vectors-and-column-mapping");
    assertThat(Markdown.slug("Compatibility: the lines the suite runs"))
        .isEqualTo("compatibility-the-lines-the-suite-runs");
    assertThat(Markdown.slug("`tables.include.regex` & `tables.exclude.regex`"))
        .isEqualTo("tablesincluderegex--tablesexcluderegex");
    assertThat(Markdown.slug("Read/write (Spark 3.1.1)")).isEqualTo("readwrite-spark-311");
    assertThat(Markdown.slug("The `_change_type` column")).isEqualTo("the-_change_type-column");
    assertThat(Markdown.slug("snake_case stays, _emphasis_ and **bold** go")).isEqualTo("snake_case-stays-emphasis-and-bold-go");
    assertThat(Markdown.slug("A [linked](https://example.com/a-b) word")).isEqualTo("a-linked-word");
    assertThat(Markdown.slug("What's new in 1.0.0?")).isEqualTo("whats-new-in-100");
    assertThat(Markdown.slug("Kafka — Connect &amp; Spark")).isEqualTo("kafka--connect--spark");
    assertThat(Markdown.slug("Émigré <em>café</em> \\_x\\_")).isEqualTo("émigré-café-_x_");
    assertThat(Markdown.slug("  Upper CASE  ")).isEqualTo("upper-case");
  }

  @Test
  void repeatedHeadingsGetNumberedAnchorsAndExplicitAnchorsCount() {
    Markdown doc = Markdown.of("x.md", String.join("\n",
        "# Options",
        "## Options",
        "### Options ###",
        "",
        "Setext title",
        "============",
        "",
        "<a name=\"legacy-anchor\"></a>",
        "```bash",
        "# not a heading",
        "```",
        "#hashtag is no heading either"));
    assertThat(doc.anchors()).containsExactly("options", "options-1", "options-2", "setext-title", "legacy-anchor");
  }

  @Test
  void codeBlocksKeepTheirLanguageLinesAndContent() {
    Markdown doc = Markdown.of("x.md", String.join("\n",
        "Text",
        "```JSON {title=x}",
        "{\"a\": 1}",
        "```",
        "- a list item:",
        "  ~~~",
        "  indented",
        "    more",
        "  ~~~",
        "````markdown",
        "```python",
        "nested",
        "```",
        "````"));
    List<Markdown.CodeBlock> blocks = doc.codeBlocks();
    assertThat(blocks).extracting(b -> b.language).containsExactly("json", "", "markdown");
    assertThat(blocks).extracting(b -> b.firstLine).containsExactly(3, 7, 11);
    assertThat(blocks.get(1).content).isEqualTo("indented\n  more\n");
    assertThat(blocks.get(2).content).isEqualTo("```python\nnested\n```\n");
    assertThat(blocks.get(1).lineOf(blocks.get(1).content.indexOf("more"))).isEqualTo(8);
  }

  @Test
  void codeSpansAndLinksComeFromTheProseOnly() {
    Markdown doc = Markdown.of("x.md", String.join("\n",
        "A `span` and ``a `tick` in it``, one `across",
        "lines [not](a.md)` and [a link](b.md \"title\") with ![an image](c.png).",
        "",
        "`unclosed [link](d.md)",
        "",
        "<!-- [hidden](e.md) -->",
        "[Reference][ref], [shortcut ref][] and <a href=\"f.md\">html</a>.",
        "",
        "[ref]: <g.md>",
        "```",
        "[code](h.md)",
        "```"));
    assertThat(doc.codeSpans()).extracting(s -> s.line + ":" + s.content)
        .containsExactly("1:span", "1:a `tick` in it", "1:across lines [not](a.md)");
    assertThat(doc.links()).extracting(l -> l.line + ":" + l.target)
        .containsExactly("2:b.md", "2:c.png", "4:d.md", "7:g.md", "7:null", "7:f.md", "9:g.md");
  }
}
