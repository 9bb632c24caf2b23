package io.sharestream.kafka;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/** Writes {@code docs/kafka-connect-config.md}: every setting of a {@link ConfigDef}, grouped as it groups them. */
final class ConfigReference {
  static final String FILE = "docs/kafka-connect-config.md";
  static final String REGENERATE = "mvn -pl kafka-connect test -Dtest=ConfigReferenceTest -Ddocs.write=true";

  private ConfigReference() {}

  static String markdown(ConfigDef def) {
    StringBuilder b = new StringBuilder()
        .append("# Kafka connector configuration\n\n")
        .append("<!-- Generated from DeltaSharingSourceConfig by ConfigReferenceTest; do not edit. Regenerate: `")
        .append(REGENERATE).append("`. -->\n\n")
        .append("The settings of `").append(DeltaSharingSourceConnector.class.getName())
        .append("`, beside Kafka Connect's own (`name`, `connector.class`, `tasks.max`, converters, ")
        .append("`exactly.once.support`, `transaction.boundary`). A bad value is refused on its setting by ")
        .append("`PUT /connector-plugins/DeltaSharingSourceConnector/config/validate` and when the connector is ")
        .append("created (see [errors](errors.md)). Exactly one credential form: `profile.path`, `profile.json`, ")
        .append("`endpoint` + `bearer.token`, or `endpoint` + the `oauth.*` settings.\n");
    Map<String, List<ConfigKey>> byGroup = def.configKeys().values().stream()
        .collect(Collectors.groupingBy(k -> k.group, Collectors.toList()));
    for (String group : def.groups()) {
      b.append("\n## ").append(group).append("\n\n")
          .append("| setting | type | default | valid values | importance | description |\n")
          .append("|---|---|---|---|---|---|\n");
      byGroup.get(group).stream().sorted(Comparator.comparingInt(k -> k.orderInGroup)).forEach(k -> b.append("| `")
          .append(k.name).append("` | ").append(k.type.name().toLowerCase(Locale.ROOT)).append(" | ")
          .append(defaultValue(k)).append(" | ").append(code(validValues(k))).append(" | ")
          .append(k.importance.name().toLowerCase(Locale.ROOT)).append(" | ").append(text(k.documentation))
          .append(" |\n"));
    }
    b.append("\n## Column types\n\n").append(ConnectSchemas.TYPES_DOC).append("\n");
    return b.toString();
  }

  private static String defaultValue(ConfigKey k) {
    if (k.defaultValue == ConfigDef.NO_DEFAULT_VALUE) {
      return "*required*";
    }
    String v = k.defaultValue == null ? null : ConfigDef.convertToString(k.defaultValue, k.type);
    return v == null ? "" : v.isEmpty() ? "`\"\"`" : "`" + v + "`";
  }

  /** The validator's description, else the recommender's values; empty when any value is accepted. */
  private static String validValues(ConfigKey k) {
    if (k.validator != null) {
      return k.validator.toString();
    }
    return k.recommender == null ? "" : k.recommender.validValues(k.name, Map.of()).stream().map(String::valueOf)
        .collect(Collectors.joining(", "));
  }

  private static String code(String s) {
    return s.isEmpty() ? "" : "`" + s.replace("|", "\\|") + "`";
  }

  /** Text fit for a table cell: '<' would open an HTML tag, '|' end the cell, a leading '_' start emphasis. */
  private static String text(String s) {
    return s.replace("|", "\\|").replace("<", "\\<").replaceAll("(?<!\\w)_", "\\\\_");
  }
}
