package io.sharestream.common.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.docs.GeneratedDoc;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/errors.md} is what {@link ErrorsReference} makes of the errors, and it covers every factory of
 * {@link Errors} and every exception type of the package; {@code -Ddocs.write=true} rewrites it.
 */
class ErrorsReferenceTest {
  @Test
  void theCommittedReferenceIsGeneratedFromTheErrors() throws IOException {
    GeneratedDoc.assertCurrent(ErrorsReference.FILE, ErrorsReference.markdown(),
        ErrorsReference.REGENERATE);
  }

  @Test
  void everyFactoryOfErrorsHasAnExampleAndEveryExampleAFactory() {
    Set<String> factories = new HashSet<>();
    for (Method m : Errors.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers()) && DeltaSharingException.class.isAssignableFrom(m.getReturnType())) {
        factories.add(m.getName());
      }
    }
    assertThat(factories).contains("fromResponse", "protocol");
    assertThat(new HashSet<>(ErrorsReference.exampleMethods())).isEqualTo(factories);
  }

  @Test
  void everyExceptionTypeHasASectionAndEveryExampleItsType() throws IOException, URISyntaxException {
    List<Class<?>> documented = new ArrayList<>();
    ErrorsReference.KINDS.forEach(k -> documented.add(k.type));
    assertThat(documented).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(exceptionTypes());
    for (ErrorsReference.Example e : ErrorsReference.EXAMPLES) {
      assertThat(documented).as(e.raiser + " " + e.label).contains(e.make.get().getClass());
    }
    String doc = ErrorsReference.markdown();
    for (Class<?> t : documented) {
      assertThat(doc).contains("\n## `" + t.getSimpleName() + "`\n");
    }
    assertThat(doc).contains("| `Errors.fromResponse` | HTTP 404 | Not found (HTTP 404) for {what}: check the share")
        .doesNotContain("1970-01-01");
  }

  /** Every DeltaSharingException of this package, from its compiled classes. */
  private static List<Class<?>> exceptionTypes() throws IOException, URISyntaxException {
    Path dir = Path.of(Errors.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve(Errors.class.getPackageName().replace('.', '/'));
    List<Class<?>> types = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".class") && !name.contains("$")) {
          Class<?> c = load(Errors.class.getPackageName() + "." + name.substring(0, name.length() - 6));
          if (DeltaSharingException.class.isAssignableFrom(c)) {
            types.add(c);
          }
        }
      }
    }
    assertThat(types).contains(UnauthorizedException.class, DeltaSharingException.class);
    return types;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
