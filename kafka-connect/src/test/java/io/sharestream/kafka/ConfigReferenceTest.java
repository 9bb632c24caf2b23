package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.docs.GeneratedDoc;
import java.io.IOException;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/kafka-connect-config.md} is what {@link ConfigReference} makes of the connector's ConfigDef;
 * {@code -Ddocs.write=true} rewrites it.
 */
class ConfigReferenceTest {
  @Test
  void theCommittedReferenceIsGeneratedFromTheConfigDef() throws IOException {
    GeneratedDoc.assertCurrent(ConfigReference.FILE, ConfigReference.markdown(DeltaSharingSourceConfig.CONFIG_DEF),
        ConfigReference.REGENERATE);
  }

  @Test
  void everySettingIsDocumentedWithItsValidValues() {
    String doc = ConfigReference.markdown(DeltaSharingSourceConfig.CONFIG_DEF);
    for (ConfigDef.ConfigKey k : DeltaSharingSourceConfig.CONFIG_DEF.configKeys().values()) {
      assertThat(doc).contains("| `" + k.name + "` |");
      assertThat(k.documentation).as(k.name).isNotBlank();
      if (k.validator != null) {
        assertThat(k.validator.toString()).as("valid values of %s", k.name).doesNotContain("@");
      }
    }
    assertThat(doc).contains("| `tables` | list | `\"\"` | `<share>.<schema>.<table>, <share>.<schema>.* or <share>.*, "
        + "comma-separated` | high |")
        .contains("| `startingVersion` | string |  | `latest, snapshot, earliest or a version >= 0` | high |")
        .contains("| `time.precision.mode` | string | `connect` | `[connect, micros, string]` | medium |")
        .contains("| `poll.interval.ms` | long | `10000` | `[1,...]` | medium |");
  }
}
