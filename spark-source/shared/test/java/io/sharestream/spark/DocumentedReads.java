package io.sharestream.spark;

import io.sharestream.testkit.docs.Markdown;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reads of this source in a Markdown document's code blocks (labelled python, scala, java, sql, or unlabelled),
 * and the option names each gives:
 * <ul>
 *   <li>a reader chain, {@code .read} or {@code .readStream} followed by calls up to {@code .load(...)} or
 *       {@code .table(...)}, that calls {@code .format("deltaSharing")} or {@code .format("sharestream")} (any
 *       case), or reads with {@code .table("t")} a table the document creates {@code USING} the source: the names
 *       of its {@code .option("name", ...)} calls, of its {@code .options(name=..., ...)} keywords, of
 *       {@code .options(Map("name" -> ...))}, and of {@code .options(**d)} when the block assigns {@code d} a dict
 *       literal ({@code d = {"name": ...}} or {@code d = dict(name=...)}); otherwise {@code **d} is not checked.
 *       What follows the chain (a {@code .writeStream}'s options) is not part of it;</li>
 *   <li>a SQL statement {@code ... USING deltaSharing|sharestream ... OPTIONS (name 'value', ...)} up to its
 *       {@code ;}: the names of its {@code OPTIONS}.</li>
 * </ul>
 * Options given by a variable or a constant ({@code .option(key, v)}) are not checked.
 */
final class DocumentedReads {
  private static final Set<String> LANGUAGES = Set.of("python", "py", "pyspark", "scala", "java", "sql", "");
  private static final Pattern READER = Pattern.compile("\\.(read|readStream)\\b(\\s*\\(\\s*\\))?");
  private static final Pattern SOURCE = Pattern.compile("(?i)deltaSharing|sharestream");
  private static final Pattern USING = Pattern.compile("(?i)\\bUSING\\s+[`\"]?(deltaSharing|sharestream)\\b[`\"]?");
  private static final Pattern CREATED = Pattern.compile("(?is)\\bCREATE\\s+(?:OR\\s+REPLACE\\s+)?"
      + "(?:TEMP(?:ORARY)?\\s+)?(?:TABLE|VIEW)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([`\\w.]+)[^;]*?$");
  private static final Pattern SQL_OPTIONS = Pattern.compile("(?i)\\bOPTIONS\\s*\\(");
  private static final Pattern CALL = Pattern.compile("\\.\\s*(\\w+)\\s*\\(");
  private static final Pattern KEYWORD = Pattern.compile("^\\s*(\\w+)\\s*=(?!=)");
  private static final Pattern SPLAT = Pattern.compile("^\\s*\\*\\*\\s*(\\w+)\\s*$");
  private static final Pattern DICT_KEY = Pattern.compile("^\\s*[\"'](.*?)[\"']\\s*:");
  private static final Pattern SCALA_PAIR = Pattern.compile("(\"[^\"]*\")\\s*->");
  private static final Pattern SQL_KEY = Pattern.compile("^\\s*('[^']*'|\"[^\"]*\"|`[^`]*`|[\\w.]+)");

  private DocumentedReads() {}

  /** An option name as written: where ("file:line") and the name. */
  static final class Option {
    final String where;
    final String name;

    Option(String where, String name) {
      this.where = where;
      this.name = name;
    }
  }

  /** A read of the source: where it starts ("file:line") and the options it names. */
  static final class Read {
    final String where;
    final List<Option> options;

    Read(String where, List<Option> options) {
      this.where = where;
      this.options = options;
    }
  }

  /** The reads of {@code doc}'s code blocks, in order. */
  static List<Read> inMarkdown(Markdown doc) {
    List<Markdown.CodeBlock> blocks = new ArrayList<>();
    for (Markdown.CodeBlock b : doc.codeBlocks()) {
      if (LANGUAGES.contains(b.language)) {
        blocks.add(b);
      }
    }
    Set<String> tables = new HashSet<>();
    List<Read> reads = new ArrayList<>();
    for (Markdown.CodeBlock b : blocks) {
      reads.addAll(sqlReads(doc.name, b, tables));
    }
    for (Markdown.CodeBlock b : blocks) {
      reads.addAll(readerChains(doc.name, b, tables));
    }
    return reads;
  }

  /** The SQL statements of {@code b} using the source; adds the tables they create to {@code tables}. */
  private static List<Read> sqlReads(String file, Markdown.CodeBlock b, Set<String> tables) {
    List<Read> reads = new ArrayList<>();
    String s = b.content;
    Matcher using = USING.matcher(s);
    while (using.find()) {
      int start = s.lastIndexOf(';', using.start()) + 1;
      int end = s.indexOf(';', using.end());
      end = end < 0 ? s.length() : end;
      Matcher created = CREATED.matcher(s.substring(start, using.start()));
      if (created.find()) {
        String name = created.group(1).replace("`", "");
        tables.add(name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT));
      }
      List<Option> options = new ArrayList<>();
      Matcher o = SQL_OPTIONS.matcher(s).region(using.end(), end);
      if (o.find()) {
        int close = closing(s, o.end() - 1);
        for (int[] item : items(s, o.end(), close)) {
          Matcher key = SQL_KEY.matcher(s.substring(item[0], item[1]));
          if (key.find()) {
            String k = key.group(1);
            options.add(new Option(file + ":" + b.lineOf(item[0] + key.start(1)),
                k.matches("['\"`].*") ? k.substring(1, k.length() - 1) : k));
          }
        }
      }
      reads.add(new Read(file + ":" + b.lineOf(using.start()), options));
    }
    return reads;
  }

  /** The reader chains of {@code b} that read the source. */
  private static List<Read> readerChains(String file, Markdown.CodeBlock b, Set<String> tables) {
    List<Read> reads = new ArrayList<>();
    String s = b.content;
    Matcher reader = READER.matcher(s);
    while (reader.find()) {
      boolean ours = false;
      boolean other = false;
      List<Option> options = new ArrayList<>();
      int i = reader.end();
      while (true) {
        i = skipSpace(s, i);
        Matcher call = CALL.matcher(s).region(i, s.length());
        if (!call.lookingAt()) {
          break;
        }
        String method = call.group(1);
        int open = call.end() - 1;
        int close = closing(s, open);
        List<int[]> args = items(s, open + 1, close);
        String first = args.isEmpty() ? null : literal(s, args.get(0));
        if (method.equals("format")) {
          ours = first != null && SOURCE.matcher(first).matches();
          other = !ours;
        } else if (method.equals("option") && first != null) {
          options.add(new Option(file + ":" + b.lineOf(args.get(0)[0]), first));
        } else if (method.equals("options")) {
          options.addAll(optionsCall(file, b, args));
        } else if (method.equals("table")) {
          ours |= !other && first != null && tables.contains(first.substring(first.lastIndexOf('.') + 1)
              .toLowerCase(Locale.ROOT));
          break;
        } else if (method.equals("load")) {
          break;
        }
        i = close + 1;
      }
      if (ours) {
        reads.add(new Read(file + ":" + b.lineOf(reader.start()), options));
      }
    }
    return reads;
  }

  /** The names of an {@code .options(...)} call's keywords, Scala map pairs, or a dict literal's keys. */
  private static List<Option> optionsCall(String file, Markdown.CodeBlock b, List<int[]> args) {
    String s = b.content;
    List<Option> options = new ArrayList<>();
    for (int[] arg : args) {
      String text = s.substring(arg[0], arg[1]);
      Matcher keyword = KEYWORD.matcher(text);
      Matcher dict = SPLAT.matcher(text);
      if (keyword.find()) {
        options.add(new Option(file + ":" + b.lineOf(arg[0] + keyword.start(1)), keyword.group(1)));
      } else if (dict.find()) {
        Matcher assigned = Pattern.compile("(?m)^\\s*" + dict.group(1) + "\\s*=\\s*(\\{|dict\\s*\\()").matcher(s);
        if (assigned.find()) {
          int open = assigned.end() - 1;
          for (int[] entry : items(s, open + 1, closing(s, open))) {
            Matcher k = (s.charAt(open) == '{' ? DICT_KEY : KEYWORD).matcher(s.substring(entry[0], entry[1]));
            if (k.find()) {
              options.add(new Option(file + ":" + b.lineOf(entry[0] + k.start(1)), k.group(1)));
            }
          }
        }
      } else {
        Matcher pair = SCALA_PAIR.matcher(text);
        while (pair.find()) {
          String k = pair.group(1);
          options.add(new Option(file + ":" + b.lineOf(arg[0] + pair.start(1)), k.substring(1, k.length() - 1)));
        }
      }
    }
    return options;
  }

  /** The string literal {@code item} is, or null. */
  private static String literal(String s, int[] item) {
    String t = s.substring(item[0], item[1]).trim();
    return t.length() >= 2 && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'"))
        ? t.substring(1, t.length() - 1) : null;
  }

  /** Past whitespace, line continuations and line comments ({@code #}, {@code //}, {@code --}). */
  private static int skipSpace(String s, int i) {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c) || c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
        i++;
      } else if (c == '#' || s.startsWith("//", i) || s.startsWith("--", i)) {
        int eol = s.indexOf('\n', i);
        i = eol < 0 ? s.length() : eol;
      } else {
        break;
      }
    }
    return i;
  }

  /** The index of the bracket closing the one at {@code open} (string literals skipped), or the end. */
  private static int closing(String s, int open) {
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\'') {
        i = endOfString(s, i);
      } else if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if ((c == ')' || c == '}' || c == ']') && --depth == 0) {
        return i;
      }
    }
    return s.length();
  }

  /** The comma-separated items between {@code from} and {@code to}, as [start, end) ranges, nesting respected. */
  private static List<int[]> items(String s, int from, int to) {
    List<int[]> items = new ArrayList<>();
    int depth = 0;
    int start = from;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\'') {
        i = endOfString(s, i);
      } else if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(new int[] {start, i});
        start = i + 1;
      }
    }
    if (!s.substring(start, Math.min(to, s.length())).isBlank()) {
      items.add(new int[] {start, Math.min(to, s.length())});
    }
    return items;
  }

  private static int endOfString(String s, int quote) {
    char q = s.charAt(quote);
    for (int i = quote + 1; i < s.length(); i++) {
      if (s.charAt(i) == '\\') {
        i++;
      } else if (s.charAt(i) == q || s.charAt(i) == '\n') {
        return i;
      }
    }
    return s.length();
  }
}
