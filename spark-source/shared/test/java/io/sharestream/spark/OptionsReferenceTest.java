package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.testkit.docs.GeneratedDoc;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/spark-options.md} is what {@link OptionsReference} makes of the options and session confs, and they
 * name every option the parser accepts and every conf the source reads; {@code -Ddocs.write=true} rewrites it.
 */
class OptionsReferenceTest {
  @Test
  void theCommittedReferenceIsGeneratedFromTheOptions() throws IOException {
    GeneratedDoc.assertCurrent(OptionsReference.FILE, OptionsReference.markdown(),
        OptionsReference.REGENERATE);
  }

  @Test
  void everyOptionTheParserAcceptsIsDocumentedAndNoOther() throws IllegalAccessException {
    List<String> documented = names(DeltaSharingOptions.OPTIONS);
    assertThat(documented).doesNotHaveDuplicates().containsAll(StreamOptions.NAMES)
        .containsAll(DeltaSharingOptions.PROFILE_OPTIONS)
        .containsAll(constants(DeltaSharingOptions.class, Modifier.PUBLIC, ""));
    for (String name : documented) {
      assertThat(unknownOptionError(name)).as(name).isNull();
    }
    assertThat(unknownOptionError("startingVersoin")).startsWith("Unknown option [startingVersoin]")
        .contains(documented.toString());
  }

  @Test
  void everySessionConfTheSourceReadsOrIgnoresIsDocumented() throws IllegalAccessException {
    List<String> read = names(SessionConfs.CONFS);
    assertThat(read).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(constants(SessionConfs.class, 0, "spark."))
        .doesNotContainAnyElementsOf(SessionConfs.NOT_APPLIED)
        .anyMatch(n -> n.startsWith("spark.sharestream.")).anyMatch(n -> n.startsWith("spark.delta.sharing."));
    String doc = OptionsReference.markdown();
    read.addAll(SessionConfs.NOT_APPLIED);
    for (String conf : read) {
      assertThat(doc).contains("`" + conf + "`");
    }
  }

  /** The "Unknown option" error parsing {@code option} gives, or null when the parser knows it. */
  private static String unknownOptionError(String option) {
    try {
      DeltaSharingOptions.parse(Map.of(DeltaSharingOptions.PATH, "s.sc.t", option, "x"), p -> {
        throw new AssertionError("no profile file is read");
      }, SessionConfs.of(Map.<String, String>of()::get, ZoneOffset.UTC));
      return null;
    } catch (DeltaSharingException e) {
      return e.getMessage().startsWith("Unknown option") ? e.getMessage() : null; // a bad value, or no profile
    }
  }

  private static List<String> names(List<DeltaSharingOptions.Doc> docs) {
    List<String> names = new ArrayList<>();
    docs.forEach(d -> names.add(d.name));
    return names;
  }

  /** The values of {@code type}'s static String constants with {@code modifier} (0: any) and {@code prefix}. */
  private static Set<String> constants(Class<?> type, int modifier, String prefix) throws IllegalAccessException {
    Set<String> values = new HashSet<>();
    for (Field f : type.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
          && (modifier == 0 || (f.getModifiers() & modifier) != 0) && !f.getName().equals("PATH")) {
        f.setAccessible(true);
        String v = (String) f.get(null);
        if (v.startsWith(prefix)) {
          values.add(v);
        }
      }
    }
    return values;
  }
}
