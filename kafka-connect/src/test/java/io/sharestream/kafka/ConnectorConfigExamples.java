package io.sharestream.kafka;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sharestream.testkit.docs.Markdown;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.runtime.ConnectorConfig;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;

/**
 * The connector configuration examples of the documentation and of {@code config/} / {@code docker/}, and what is
 * wrong with them. An example is
 * <ul>
 *   <li>a JSON object holding {@code "connector.class"}, flat (a {@code PUT .../config} body) or under
 *       {@code "config"} (a {@code POST /connectors} body): a Markdown block labelled json (or unlabelled, starting
 *       with '{'), or a {@code .json} file. It must parse, unless it holds an elision ({@code ...} or {@code …}):
 *       such an excerpt is read line by line, one {@code "key": value} a line. The JSON a shell block's
 *       {@code curl} sends ({@code -d '{...}'}, {@code --data}, {@code --data-raw}) is read the same way;</li>
 *   <li>properties with a {@code connector.class=} line: a Markdown block labelled properties, ini or conf (or
 *       unlabelled), or a {@code .properties} file;</li>
 *   <li>the {@code spec.config} of a Strimzi {@code KafkaConnector} resource (its {@code spec.class} read as
 *       {@code connector.class}): a Markdown block labelled yaml, or a {@code .yaml}/{@code .yml} file.</li>
 * </ul>
 * Every key must be a setting of
 * {@link DeltaSharingSourceConfig} or of Kafka Connect for a source connector ({@link SourceConnectorConfig}, and the
 * {@code transforms.*}, {@code predicates.*}, converter, {@code topic.creation.*} and client override prefixes);
 * a literal value (no {@code ${...}} config provider reference, no {@code <placeholder>}, no elision) must pass the
 * setting's type and validator, but for Connect's class settings; {@code connector.class} must name this connector.
 */
final class ConnectorConfigExamples {
  private static final ConfigDef CONNECTOR = DeltaSharingSourceConfig.CONFIG_DEF;
  private static final ConfigDef FRAMEWORK = SourceConnectorConfig.configDef();
  private static final List<String> FRAMEWORK_PREFIXES = List.of(ConnectorConfig.TRANSFORMS_CONFIG + ".",
      ConnectorConfig.PREDICATES_PREFIX, ConnectorConfig.KEY_CONVERTER_CLASS_CONFIG + ".",
      ConnectorConfig.VALUE_CONVERTER_CLASS_CONFIG + ".", ConnectorConfig.HEADER_CONVERTER_CLASS_CONFIG + ".",
      SourceConnectorConfig.TOPIC_CREATION_PREFIX, ConnectorConfig.CONNECTOR_CLIENT_PRODUCER_OVERRIDES_PREFIX,
      ConnectorConfig.CONNECTOR_CLIENT_CONSUMER_OVERRIDES_PREFIX, ConnectorConfig.CONNECTOR_CLIENT_ADMIN_OVERRIDES_PREFIX);
  private static final List<String> CONNECTOR_CLASS_NAMES = List.of(DeltaSharingSourceConnector.class.getName(),
      DeltaSharingSourceConnector.class.getSimpleName(), "DeltaSharingSource");
  private static final Pattern ELISION = Pattern.compile("\\.\\.\\.|…");
  private static final Pattern NOT_LITERAL = Pattern.compile(".*(\\$\\{|<[^>]*>|\\.\\.\\.|…).*", Pattern.DOTALL);
  private static final Pattern PROPERTIES_EXAMPLE = Pattern.compile("(?m)^\\s*connector\\.class\\s*[=:]");
  private static final Pattern CURL_DATA = Pattern.compile("(?s)(?:-d|--data(?:-raw|-binary)?)\\s+'(\\{[^']*)'");
  private static final Pattern JSON_LINE = Pattern.compile("^\\s*\"((?:[^\"\\\\]|\\\\.)+)\"\\s*:\\s*(.*?)\\s*,?\\s*$");
  private static final JsonMapper JSON = new JsonMapper();

  private ConnectorConfigExamples() {}

  /** A setting of an example: where it is written ("file:line"), its key, and its value (null: not a scalar). */
  record Setting(String where, String key, String value) {}

  /** An example: where it starts ("file:line"), its settings, and why it could not be read (null: it could). */
  record Example(String where, List<Setting> settings, String unreadable) {}

  /** The examples of a Markdown document's code blocks. */
  static List<Example> inMarkdown(Markdown doc) {
    List<Example> examples = new ArrayList<>();
    for (Markdown.CodeBlock b : doc.codeBlocks()) {
      String lang = b.language;
      if ((lang.startsWith("json") || lang.isEmpty() && b.content.trim().startsWith("{"))
          && b.content.contains("\"connector.class\"")) {
        examples.addAll(inJson(doc.name, b.content, b.firstLine));
      } else if (List.of("bash", "sh", "shell", "console", "").contains(lang) && b.content.contains("curl")) {
        Matcher data = CURL_DATA.matcher(b.content);
        while (data.find()) {
          if (data.group(1).contains("\"connector.class\"")) {
            examples.addAll(inJson(doc.name, data.group(1), b.lineOf(data.start(1))));
          }
        }
      } else if (List.of("properties", "ini", "conf", "").contains(lang)
          && PROPERTIES_EXAMPLE.matcher(b.content).find()) {
        examples.add(inProperties(doc.name, b.content, b.firstLine));
      } else if ((lang.equals("yaml") || lang.equals("yml")) && b.content.contains("KafkaConnector")) {
        examples.addAll(inYaml(doc.name, b.content, b.firstLine));
      }
    }
    return examples;
  }

  /** The examples of the {@code .json}, {@code .properties} and {@code .yaml} files under {@code dirs} of {@code root}. */
  static List<Example> inFiles(Path root, String... dirs) {
    List<Example> examples = new ArrayList<>();
    for (String dir : dirs) {
      if (!Files.isDirectory(root.resolve(dir))) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root.resolve(dir))) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          String name = root.relativize(f).toString().replace('\\', '/');
          String text = Files.readString(f);
          if (name.endsWith(".json") && text.contains("\"connector.class\"")) {
            examples.addAll(inJson(name, text, 1));
          } else if (name.endsWith(".properties") && PROPERTIES_EXAMPLE.matcher(text).find()) {
            examples.add(inProperties(name, text, 1));
          } else if ((name.endsWith(".yaml") || name.endsWith(".yml")) && text.contains("KafkaConnector")) {
            examples.addAll(inYaml(name, text, 1));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return examples;
  }

  /** The connector config of a JSON text starting at {@code firstLine} of {@code file}. */
  static List<Example> inJson(String file, String text, int firstLine) {
    String where = file + ":" + firstLine;
    List<Setting> top = new ArrayList<>();
    List<Setting> config = new ArrayList<>();
    try (JsonParser p = JSON.createParser(text)) {
      Deque<String> path = new ArrayDeque<>();
      String field = null;
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME) {
          field = p.currentName();
          continue;
        }
        List<Setting> into = path.size() == 1 ? top
            : path.size() == 2 && path.peekFirst().equals("config") ? config : null;
        if (into != null && field != null) {
          int line = firstLine + p.currentTokenLocation().getLineNr() - 1;
          into.add(new Setting(file + ":" + line, field, t.isScalarValue() ? p.getText() : null));
        }
        if (t.isStructStart()) {
          path.push(field == null ? "" : field);
        } else if (t.isStructEnd()) {
          path.pop();
        }
        field = null;
      }
    } catch (JsonProcessingException e) {
      if (!ELISION.matcher(text).find()) {
        return List.of(new Example(where, List.of(), "not valid JSON: " + e.getOriginalMessage()));
      }
      return List.of(new Example(where, excerpt(file, text, firstLine), null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    boolean nested = config.stream().anyMatch(s -> s.key().equals("connector.class"));
    return List.of(new Example(where, nested ? config : top, null));
  }

  /** The {@code "key": value} lines of an elided JSON excerpt; objects ({@code "config": {}}) are not settings. */
  private static List<Setting> excerpt(String file, String text, int firstLine) {
    List<Setting> settings = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher m = JSON_LINE.matcher(lines[i]);
      if (m.matches() && !m.group(2).startsWith("{")) {
        String v = m.group(2);
        String value = v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
        settings.add(new Setting(file + ":" + (firstLine + i), m.group(1), value));
      }
    }
    return settings;
  }

  /** The connector config of a properties text starting at {@code firstLine} of {@code file}. */
  static Example inProperties(String file, String text, int firstLine) {
    List<Setting> settings = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int start = i;
      StringBuilder logical = new StringBuilder(lines[i]);
      while (endsWithContinuation(logical) && i + 1 < lines.length) {
        logical.append('\n').append(lines[++i]);
      }
      Properties one = new Properties();
      try {
        one.load(new StringReader(logical.toString()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (String key : one.stringPropertyNames()) {
        settings.add(new Setting(file + ":" + (firstLine + start), key, one.getProperty(key)));
      }
    }
    return new Example(file + ":" + firstLine, settings, null);
  }

  private static boolean endsWithContinuation(CharSequence line) {
    int backslashes = 0;
    for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  /** The {@code spec.config} of each {@code KafkaConnector} document of a YAML text at {@code firstLine} of {@code file}. */
  static List<Example> inYaml(String file, String text, int firstLine) {
    List<Example> examples = new ArrayList<>();
    try (JsonParser p = new YAMLFactory().createParser(text)) {
      List<String> path = new ArrayList<>(); // the fields down to the current value; "" for a document's root
      String field = null;
      String kind = null;
      int documentLine = firstLine;
      List<Setting> settings = new ArrayList<>();
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.FIELD_NAME) {
          field = p.currentName();
          continue;
        }
        int line = firstLine + p.currentTokenLocation().getLineNr() - 1;
        String at = path.isEmpty() ? null : String.join(".", path.subList(1, path.size()));
        if (at == null) {
          documentLine = line;
        } else if (at.isEmpty() && "kind".equals(field)) {
          kind = p.getText();
        } else if (at.equals("spec") && "class".equals(field)) {
          settings.add(new Setting(file + ":" + line, ConnectorConfig.CONNECTOR_CLASS_CONFIG, p.getText()));
        } else if (at.equals("spec.config") && field != null) {
          settings.add(new Setting(file + ":" + line, field, t.isScalarValue() ? p.getText() : null));
        }
        if (t.isStructStart()) {
          path.add(field == null ? "" : field);
        } else if (t.isStructEnd()) {
          path.remove(path.size() - 1);
        }
        field = null;
        if (path.isEmpty()) {
          if ("KafkaConnector".equals(kind)) {
            examples.add(new Example(file + ":" + documentLine, settings, null));
          }
          kind = null;
          settings = new ArrayList<>();
        }
      }
    } catch (JsonProcessingException e) {
      return List.of(new Example(file + ":" + firstLine, List.of(), "not valid YAML: " + e.getOriginalMessage()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return examples;
  }

  /** "file:line: what is wrong" for each problem of {@code example}. */
  static List<String> problems(Example example) {
    if (example.unreadable() != null) {
      return List.of(example.where() + ": " + example.unreadable());
    }
    List<String> problems = new ArrayList<>();
    for (Setting s : example.settings()) {
      String problem = problem(s);
      if (problem != null) {
        problems.add(s.where() + ": " + problem);
      }
    }
    return problems;
  }

  private static String problem(Setting s) {
    ConfigDef.ConfigKey key = CONNECTOR.configKeys().get(s.key());
    if (key == null) {
      key = FRAMEWORK.configKeys().get(s.key());
    }
    if (key == null && FRAMEWORK_PREFIXES.stream().noneMatch(s.key()::startsWith)) {
      return "'" + s.key() + "' is a setting neither of the connector nor of Kafka Connect";
    }
    if (s.value() == null) {
      return "'" + s.key() + "' has no scalar value";
    }
    if (NOT_LITERAL.matcher(s.value()).matches()) {
      return null;
    }
    if (s.key().equals(ConnectorConfig.CONNECTOR_CLASS_CONFIG)) {
      return CONNECTOR_CLASS_NAMES.contains(s.value()) ? null
          : "connector.class '" + s.value() + "' is not " + DeltaSharingSourceConnector.class.getName();
    }
    if (key == null || key.type == ConfigDef.Type.CLASS) {
      return null;
    }
    try {
      Object parsed = ConfigDef.parseType(key.name, s.value(), key.type);
      if (key.validator != null) {
        key.validator.ensureValid(key.name, parsed);
      }
      return null;
    } catch (ConfigException e) {
      String reason = e.getMessage().replaceFirst("^Invalid value .*? for configuration " + Pattern.quote(key.name)
          + ": ", "");
      return "'" + s.key() + "' = '" + s.value() + "' is not valid: " + reason;
    }
  }
}
