package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.docs.GeneratedDoc;
import io.sharestream.testkit.docs.Markdown;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every connector configuration example of the docs ({@link Markdown#repositoryDocs}) and of {@code config/} and
 * {@code docker/} uses only settings of the connector or of Kafka Connect, with valid values
 * ({@link ConnectorConfigExamples} says what an example is and what is checked).
 */
class DocumentedConfigExamplesTest {
  @Test
  void everyDocumentedConnectorConfigUsesKnownSettingsWithValidValues() {
    Path root = GeneratedDoc.repositoryRoot();
    List<ConnectorConfigExamples.Example> inDocs = new ArrayList<>();
    Markdown.repositoryDocs(root).forEach(d -> inDocs.addAll(ConnectorConfigExamples.inMarkdown(d)));
    List<ConnectorConfigExamples.Example> inFiles = ConnectorConfigExamples.inFiles(root, "config", "docker");
    List<String> problems = new ArrayList<>();
    inDocs.forEach(e -> problems.addAll(ConnectorConfigExamples.problems(e)));
    inFiles.forEach(e -> problems.addAll(ConnectorConfigExamples.problems(e)));

    assertThat(inDocs).as("examples in the docs").isNotEmpty();
    assertThat(inFiles).extracting(ConnectorConfigExamples.Example::where).as("example files")
        .contains("config/delta-sharing-source.json:1", "config/delta-sharing-source-avro.json:1",
            "config/delta-sharing-source.properties:1");
    assertThat(inFiles.stream().mapToInt(e -> e.settings().size()).sum()).as("settings read").isGreaterThan(30);
    assertThat(problems).as("wrong connector settings in the examples").isEmpty();
  }

  @Test
  void aWrongKeyOrValueInAJsonExampleIsReportedWithItsLine() {
    Markdown doc = Markdown.of("docs/x.md", """
        # Example

        ```json
        {
          "name": "delta-sharing",
          "config": {
            "connector.class": "io.sharestream.kafka.DeltaSharingSourceConnector",
            "tasks.max": "2",
            "profile.path": "${file:/etc/secrets.properties:path}",
            "tables": "s.sc.t",
            "startingVersoin": "snapshot",
            "time.precision.mode": "nanos",
            "poll.interval.ms": 0,
            "exactly.once.support": "sometimes",
            "transforms": "route",
            "transforms.route.type": "org.apache.kafka.connect.transforms.RegexRouter",
            "key.converter.schemas.enable": "false",
            "producer.override.linger.ms": "5"
          }
        }
        ```
        """);
    List<ConnectorConfigExamples.Example> examples = ConnectorConfigExamples.inMarkdown(doc);

    assertThat(examples).singleElement().extracting(e -> e.settings().size()).isEqualTo(12);
    assertThat(ConnectorConfigExamples.problems(examples.get(0))).containsExactly(
        "docs/x.md:11: 'startingVersoin' is a setting neither of the connector nor of Kafka Connect",
        "docs/x.md:12: 'time.precision.mode' = 'nanos' is not valid: String must be one of: connect, micros, string",
        "docs/x.md:13: 'poll.interval.ms' = '0' is not valid: Value must be at least 1",
        "docs/x.md:14: 'exactly.once.support' = 'sometimes' is not valid: String must be one of (case insensitive): "
            + "REQUIRED, REQUESTED");
  }

  @Test
  void invalidJsonIsReportedUnlessElidedAndCurlBodiesAreRead() {
    Markdown doc = Markdown.of("README.md", """
        ```json
        {"connector.class": "io.sharestream.kafka.DeltaSharingSourceConnector", "tables": "s.sc.t",}
        ```

        ```json
        {
          "connector.class": "DeltaSharingSourceConnector",
          ...
          "tabels": "s.sc.t"
        }
        ```

        ```bash
        curl -X PUT -H 'Content-Type: application/json' localhost:8083/connectors/x/config -d '{
          "connector.class": "io.sharestream.kafka.DeltaSharingSourceConnector",
          "topic.prefix": "x.",
          "topic.prefx": "x."
        }'
        curl -X PUT localhost:8083/connectors/y/config -d @config/delta-sharing-source.json
        ```
        """);
    List<String> problems = new ArrayList<>();
    ConnectorConfigExamples.inMarkdown(doc).forEach(e -> problems.addAll(ConnectorConfigExamples.problems(e)));

    assertThat(problems).hasSize(3);
    assertThat(problems.get(0)).startsWith("README.md:2: not valid JSON: ");
    assertThat(problems.subList(1, 3)).containsExactly(
        "README.md:9: 'tabels' is a setting neither of the connector nor of Kafka Connect",
        "README.md:17: 'topic.prefx' is a setting neither of the connector nor of Kafka Connect");
  }

  @Test
  void propertiesAndStrimziExamplesAreCheckedToo() {
    Markdown doc = Markdown.of("docs/y.md", """
        ```properties
        name=delta-sharing
        connector.class=com.example.OtherConnector
        # a comment
        tables=s.sc.t,\\
          s.sc.u
        readChangeFeed=maybe
        ```

        ```yaml
        apiVersion: kafka.strimzi.io/v1
        kind: KafkaConnector
        metadata:
          name: delta-sharing
        spec:
          class: io.sharestream.kafka.DeltaSharingSourceConnector
          tasksMax: 1
          config:
            tables: s.sc.t
            topic.prefx: x.
            value.converter.schemas.enable: false
        ---
        kind: KafkaConnect
        spec:
          config:
            group.id: not-a-connector-setting
        ```
        """);
    List<ConnectorConfigExamples.Example> examples = ConnectorConfigExamples.inMarkdown(doc);
    List<String> problems = new ArrayList<>();
    examples.forEach(e -> problems.addAll(ConnectorConfigExamples.problems(e)));

    assertThat(examples).extracting(ConnectorConfigExamples.Example::where).containsExactly("docs/y.md:2", "docs/y.md:11");
    assertThat(problems).containsExactly(
        "docs/y.md:3: connector.class 'com.example.OtherConnector' is not "
            + "io.sharestream.kafka.DeltaSharingSourceConnector",
        "docs/y.md:7: 'readChangeFeed' = 'maybe' is not valid: Expected value to be either true or false",
        "docs/y.md:20: 'topic.prefx' is a setting neither of the connector nor of Kafka Connect");
  }
}
