package io.sharestream.testkit.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Markdown document read the way GitHub renders it, as far as tests of the documentation need: its fenced code
 * blocks, its headings' anchors, and the links of its prose (outside code blocks, inline code and HTML comments).
 * Line numbers are 1-based lines of the document.
 */
public final class Markdown {
  private static final Pattern FENCE = Pattern.compile("^( *)(`{3,}|~{3,})(.*)$");
  private static final Pattern ATX = Pattern.compile("^ {0,3}#{1,6}(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
  private static final Pattern SETEXT = Pattern.compile("^ {0,3}(=+|-+)[ \\t]*$");
  private static final Pattern NOT_SETEXT_TEXT = Pattern.compile("^ {0,3}([-*+>#|]|\\d+[.)]|$)");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s[^>]*?\\b(?:id|name)\\s*=\\s*[\"']?([^\"'\\s>]+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern INLINE_LINK = Pattern.compile("!?\\[((?:[^\\[\\]]|\\[[^\\[\\]]*])*)]\\(\\s*"
      + "(<[^>\\n]*>|[^\\s()]*(?:\\([^\\s()]*\\)[^\\s()]*)*)(?:\\s+(?:\"[^\"]*\"|'[^']*'|\\([^)]*\\)))?\\s*\\)");
  private static final Pattern REFERENCE_LINK = Pattern.compile("!?\\[((?:[^\\[\\]]|\\[[^\\[\\]]*])*)]\\[([^\\]]*)]");
  private static final Pattern REFERENCE_DEFINITION = Pattern.compile("(?m)^ {0,3}\\[([^\\]]+)]:[ \\t]*(<[^>]*>|\\S+)");
  private static final Pattern HTML_LINK =
      Pattern.compile("<(?:a|img)\\s[^>]*?\\b(?:href|src)\\s*=\\s*[\"']([^\"']*)[\"']", Pattern.CASE_INSENSITIVE);
  private static final Pattern HTML_COMMENT = Pattern.compile("<!--.*?-->", Pattern.DOTALL);
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)(?<!`)\\1(?!`)");
  private static final Pattern NOT_A_SLUG_CHARACTER = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc}\\- ]");

  /** The document's name in messages: its path from the repository root, e.g. {@code docs/spark.md}. */
  public final String name;
  /** The text with fenced code blocks and HTML comments blanked (line breaks kept). */
  private final String rendered;
  /** {@link #rendered} with inline code blanked too: the prose links are looked for in. */
  private final String prose;
  private final List<CodeBlock> codeBlocks = new ArrayList<>();
  private final List<CodeSpan> codeSpans = new ArrayList<>();

  private Markdown(String name, String text) {
    this.name = name;
    StringBuilder outside = new StringBuilder();
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher open = FENCE.matcher(lines[i]);
      if (!open.matches() || open.group(2).charAt(0) == '`' && open.group(3).contains("`")) {
        outside.append(lines[i]).append('\n');
        continue;
      }
      int indent = open.group(1).length();
      String fence = open.group(2);
      Pattern close = Pattern.compile("^ *" + fence.charAt(0) + "{" + fence.length() + ",}[ \\t]*$");
      StringBuilder content = new StringBuilder();
      int j = i + 1;
      for (; j < lines.length && !close.matcher(lines[j]).matches(); j++) {
        content.append(lines[j], Math.min(indent, leadingSpaces(lines[j])), lines[j].length()).append('\n');
      }
      String info = open.group(3).trim();
      codeBlocks.add(new CodeBlock(info.isEmpty() ? "" : info.split("[\\s{,]", 2)[0].toLowerCase(Locale.ROOT),
          i + 2, content.toString()));
      int last = Math.min(j, lines.length - 1);
      for (int k = i; k <= last; k++) {
        outside.append('\n');
      }
      i = last;
    }
    outside.setLength(outside.length() - 1);
    this.rendered = blank(outside.toString(), HTML_COMMENT);
    this.prose = blankInlineCode(rendered);
  }

  /** A document given as text (tests of the checkers themselves). */
  public static Markdown of(String name, String text) {
    return new Markdown(name, text);
  }

  /** The document at {@code file}, named by its path from {@code root}. */
  public static Markdown read(Path root, Path file) {
    try {
      return new Markdown(root.relativize(file).toString().replace('\\', '/'), Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The repository's documentation: {@code README.md}, {@code ARCHITECTURE.md} and {@code CHANGELOG.md} where they
   * exist, and every {@code .md} under {@code docs/}, in that order.
   */
  public static List<Markdown> repositoryDocs(Path root) {
    List<Path> files = new ArrayList<>();
    for (String top : List.of("README.md", "ARCHITECTURE.md", "CHANGELOG.md")) {
      if (Files.isRegularFile(root.resolve(top))) {
        files.add(root.resolve(top));
      }
    }
    if (Files.isDirectory(root.resolve("docs"))) {
      try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
        docs.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".md")).sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files.stream().map(f -> read(root, f)).collect(Collectors.toList());
  }

  /** The fenced code blocks, in order. */
  public List<CodeBlock> codeBlocks() {
    return Collections.unmodifiableList(codeBlocks);
  }

  /** The inline code of the prose ({@code `...`}), in order. */
  public List<CodeSpan> codeSpans() {
    return Collections.unmodifiableList(codeSpans);
  }

  /**
   * The anchors the document's headings produce as GitHub makes them ({@link #slug}; a repeated one gets -1, -2,
   * ...), and those of its {@code <a id="...">} / {@code <a name="...">} elements.
   */
  public Set<String> anchors() {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    String[] lines = rendered.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String heading = null;
      Matcher atx = ATX.matcher(lines[i]);
      if (atx.matches()) {
        heading = atx.group(1) == null ? "" : atx.group(1);
      } else if (i + 1 < lines.length && SETEXT.matcher(lines[i + 1]).matches()
          && !NOT_SETEXT_TEXT.matcher(lines[i]).find() && (i == 0 || lines[i - 1].isBlank())) {
        heading = lines[i];
        i++;
      }
      if (heading != null) {
        String slug = slug(heading);
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    Matcher a = HTML_ANCHOR.matcher(prose);
    while (a.find()) {
      anchors.add(a.group(1));
    }
    return anchors;
  }

  /**
   * A heading's anchor as GitHub makes it, before repeats are numbered: the heading's text as rendered (code spans'
   * content kept, link targets, HTML tags and emphasis markers dropped, escapes and entities resolved), lowercased,
   * without any character but letters, marks, digits, connector punctuation ({@code _}), hyphens and spaces, each
   * space a hyphen.
   */
  public static String slug(String heading) {
    StringBuilder text = new StringBuilder();
    Matcher code = CODE_SPAN.matcher(heading);
    int from = 0;
    while (code.find()) {
      text.append(renderedText(heading.substring(from, code.start()))).append(code.group(2).trim());
      from = code.end();
    }
    text.append(renderedText(heading.substring(from)));
    String lower = text.toString().trim().toLowerCase(Locale.ROOT);
    return NOT_A_SLUG_CHARACTER.matcher(lower).replaceAll("").replace(' ', '-');
  }

  private static String renderedText(String s) {
    return s.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1")
        .replaceAll("!?\\[([^\\]]*)]\\[[^\\]]*]", "$1")
        .replaceAll("<[^>]*>", "")
        .replaceAll("(?<![\\p{L}\\p{N}_\\\\])(__?)(?=\\S)(.+?)(?<=[^\\s\\\\])\\1(?![\\p{L}\\p{N}_])", "$2")
        .replaceAll("\\\\([!-/:-@\\[-`{-~])", "$1")
        .replace("&nbsp;", "\u00a0").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&#39;", "'").replace("&amp;", "&");
  }

  /**
   * The links of the prose, in order: inline links and images ({@code [text](target)}), reference links
   * ({@code [text][label]}, their definition's target; an undefined label gives a link whose target is null) and
   * reference definitions, and HTML {@code href}/{@code src} attributes.
   */
  public List<Link> links() {
    List<Link> links = new ArrayList<>();
    Map<String, String> definitions = new HashMap<>();
    Matcher d = REFERENCE_DEFINITION.matcher(prose);
    while (d.find()) {
      definitions.putIfAbsent(label(d.group(1)), unbracket(d.group(2)));
      links.add(new Link(lineAt(d.start(2)), d.group().trim(), unbracket(d.group(2))));
    }
    Matcher m = INLINE_LINK.matcher(prose);
    while (m.find()) {
      links.add(new Link(lineAt(m.start(2)), m.group(), unbracket(m.group(2))));
    }
    Matcher r = REFERENCE_LINK.matcher(prose);
    while (r.find()) {
      String label = label(r.group(2).isBlank() ? r.group(1) : r.group(2));
      links.add(new Link(lineAt(r.start()), r.group(), definitions.get(label)));
    }
    Matcher h = HTML_LINK.matcher(prose);
    while (h.find()) {
      links.add(new Link(lineAt(h.start(1)), h.group(), h.group(1)));
    }
    links.sort((a, b) -> Integer.compare(a.line, b.line));
    return links;
  }

  private int lineAt(int offset) {
    return lineAt(prose, offset);
  }

  private static int lineAt(String s, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (s.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  private static String label(String s) {
    return s.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  private static String unbracket(String target) {
    return target.startsWith("<") && target.endsWith(">") ? target.substring(1, target.length() - 1) : target;
  }

  private static int leadingSpaces(String s) {
    int n = 0;
    while (n < s.length() && s.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  /** {@code s} with what {@code p} matches replaced by spaces, line breaks kept. */
  private static String blank(String s, Pattern p) {
    StringBuilder b = new StringBuilder(s);
    Matcher m = p.matcher(s);
    while (m.find()) {
      blank(b, m.start(), m.end());
    }
    return b.toString();
  }

  private static void blank(StringBuilder b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b.charAt(i) != '\n') {
        b.setCharAt(i, ' ');
      }
    }
  }

  /**
   * {@code s} with its code spans blanked, each kept in {@link #codeSpans}: a run of n backticks up to the next run
   * of exactly n in its paragraph.
   */
  private String blankInlineCode(String s) {
    StringBuilder b = new StringBuilder(s);
    int i = 0;
    while (i < s.length()) {
      if (s.charAt(i) != '`' || i > 0 && s.charAt(i - 1) == '\\') {
        i++;
        continue;
      }
      int n = run(s, i);
      int paragraphEnd = s.indexOf("\n\n", i);
      int end = paragraphEnd < 0 ? s.length() : paragraphEnd;
      int close = -1;
      for (int j = i + n; j < end; j++) {
        if (s.charAt(j) == '`') {
          int k = run(s, j);
          if (k == n) {
            close = j;
            break;
          }
          j += k - 1;
        }
      }
      if (close < 0) {
        i += n;
      } else {
        blank(b, i, close + n);
        codeSpans.add(new CodeSpan(lineAt(s, i), s.substring(i + n, close).replace('\n', ' ').trim()));
        i = close + n;
      }
    }
    return b.toString();
  }

  private static int run(String s, int from) {
    int n = 0;
    while (from + n < s.length() && s.charAt(from + n) == '`') {
      n++;
    }
    return n;
  }

  /** A fenced code block: its language (the info string's first word, lowercased; "" without), and its content. */
  public static final class CodeBlock {
    /** e.g. {@code json}, {@code python}; "" for an unlabelled block. */
    public final String language;
    /** The document line of the content's first line. */
    public final int firstLine;
    /** The content, the fence's indentation removed from each line; every line ends with a line break. */
    public final String content;

    CodeBlock(String language, int firstLine, String content) {
      this.language = language;
      this.firstLine = firstLine;
      this.content = content;
    }

    /** The document line of {@code offset} in {@link #content}. */
    public int lineOf(int offset) {
      int line = firstLine;
      for (int i = 0; i < offset && i < content.length(); i++) {
        if (content.charAt(i) == '\n') {
          line++;
        }
      }
      return line;
    }
  }

  /** Inline code of the prose: its line and its content (line breaks as spaces, trimmed). */
  public static final class CodeSpan {
    public final int line;
    public final String content;

    CodeSpan(int line, String content) {
      this.line = line;
      this.content = content;
    }
  }

  /** A link of the prose: where it is, how it is written, and its target (null: an undefined reference). */
  public static final class Link {
    public final int line;
    public final String source;
    public final String target;

    Link(int line, String source, String target) {
      this.line = line;
      this.source = source;
      this.target = target;
    }

    @Override
    public String toString() {
      return line + ": " + source;
    }
  }
}
