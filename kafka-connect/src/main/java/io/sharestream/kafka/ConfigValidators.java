package io.sharestream.kafka;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.planner.StreamOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
/** The checks and recommenders of the connector's settings that Kafka's {@link ConfigDef} does not have. */
final class ConfigValidators {
  private ConfigValidators() {}

  /** Table names and whole shares or schemas (at least one, or an include regex: checked with the others). */
  static final class TablesValidator implements ConfigDef.Validator {
    @Override
    @SuppressWarnings("unchecked")
    public void ensureValid(String name, Object value) {
      List<String> entries = value == null ? List.of() : (List<String>) value;
      if (entries.stream().anyMatch(e -> !e.trim().isEmpty())) {
        new TableSelection(entries, List.of(), List.of());
      }
    }

    @Override
    public String toString() {
      return "<share>.<schema>.<table>, <share>.<schema>.* or <share>.*, comma-separated";
    }
  }

  /** PEM, PKCS12 or JKS in any case, or unset. */
  static final class TrustStoreTypeValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value != null && !List.of("PEM", "PKCS12", "JKS").contains(value.toString().trim().toUpperCase(
          java.util.Locale.ROOT))) {
        throw new ConfigException(name, value, "must be PEM, PKCS12 or JKS");
      }
    }

    @Override
    public String toString() {
      return "PEM, PKCS12 or JKS";
    }
  }

  /** A forward proxy's URL, {@code http://host:port}. */
  static final class ProxyUrlValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value != null && !value.toString().trim().isEmpty()) {
        try {
          io.sharestream.common.client.NetworkSettings.ProxyAddress.parse(value.toString(), null, null, name);
        } catch (DeltaSharingException e) {
          throw new ConfigException(name, "<hidden>", e.getMessage());
        }
      }
    }

    @Override
    public String toString() {
      return "http://<host>:<port>";
    }
  }

  /** Comma-separated Java regular expressions. */
  static final class RegexesValidator implements ConfigDef.Validator {
    @Override
    @SuppressWarnings("unchecked")
    public void ensureValid(String name, Object value) {
      TableSelection.regexes(name, value == null ? List.of() : (List<String>) value);
    }

    @Override
    public String toString() {
      return "regular expressions, comma-separated";
    }
  }

  /** A stream option, checked by the core's parser so both engines accept the same values. */
  static final class StreamOptionValidator implements ConfigDef.Validator {
    private final String validValues;

    /** {@code validValues}: what the parser accepts, in words (as the config reference shows it). */
    StreamOptionValidator(String validValues) {
      this.validValues = validValues;
    }

    @Override
    public void ensureValid(String name, Object value) {
      if (value == null) {
        return;
      }
      try {
        StreamOptions.parse(Map.of(name, value.toString()));
      } catch (DeltaSharingException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return validValues;
    }
  }



  static final class TopicTemplateValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String t = value == null ? "" : value.toString();
      String rest = t.replace("${prefix}", "").replace("${share}", "").replace("${schema}", "")
          .replace("${table}", "");
      if (rest.contains("${")) {
        throw new ConfigException(name, value, "only ${prefix}, ${share}, ${schema} and ${table} may be used");
      }
      if (t.trim().isEmpty()) {
        throw new ConfigException(name, value, "must not be empty");
      }
    }

    @Override
    public String toString() {
      return "non-empty, with ${prefix}, ${share}, ${schema}, ${table}";
    }
  }

  /** Recommends a fixed list of values. */
  static final class FixedRecommender implements ConfigDef.Recommender {
    private final List<Object> values;

    FixedRecommender(String... values) {
      this.values = new ArrayList<>(Arrays.asList((Object[]) values));
    }

    @Override
    public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
      return values;
    }

    @Override
    public boolean visible(String name, Map<String, Object> parsedConfig) {
      return true;
    }
  }
}
