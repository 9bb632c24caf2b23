package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Other lines' jars, as a user would put one on this Spark: its source refuses to start, naming the Spark it found
 * and the artifact to use. The build names the jars ({@code foreign.jars}, comma-separated: only jars built before
 * this module's can be; {@link SparkLineTest} covers every pair) and the artifact this Spark needs
 * ({@code foreign.expected}); each jar's classes are loaded before this module's own, as they would be on a cluster
 * holding only that jar.
 */
class ForeignJarTest {
  @Test
  void anotherLinesJarFailsAtItsFirstUseNamingTheSparkFoundAndTheArtifactToUse() throws Exception {
    String jars = System.getProperty("foreign.jars");
    Assumptions.assumeTrue(jars != null, "this line's build names no foreign jar");
    for (String jar : jars.split(",")) {
      assertThat(new File(jar)).exists();
      try (URLClassLoader loader = new JarFirst(new File(jar).toURI().toURL(), getClass().getClassLoader())) {
        Class<?> source = loader.loadClass("io.sharestream.spark.DeltaSharingDataSource");
        assertThat(source.getClassLoader()).isSameAs(loader);
        Object instance = source.getDeclaredConstructor().newInstance();
        Throwable failure = null;
        try {
          source.getMethod("inferSchema", CaseInsensitiveStringMap.class).invoke(instance,
              new CaseInsensitiveStringMap(Collections.singletonMap("path", "p.share#s.sc.t")));
        } catch (InvocationTargetException e) {
          failure = e.getCause();
        }
        assertThat(failure).as(jar).isInstanceOf(UnsupportedOperationException.class);
        assertThat(failure.getMessage()).as(jar).contains("but runs on Spark " + org.apache.spark.package$.MODULE$
            .SPARK_VERSION()).endsWith("Use " + System.getProperty("foreign.expected") + " instead.");
      }
    }
  }

  /** Loads the source's classes and resources from the jar first, everything else from the test's class path. */
  private static final class JarFirst extends URLClassLoader {
    JarFirst(URL jar, ClassLoader parent) {
      super(new URL[] {jar}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null && name.startsWith("io.sharestream.")) {
          try {
            c = findClass(name);
          } catch (ClassNotFoundException notInTheJar) {
            // the parent's
          }
        }
        return c != null ? c : super.loadClass(name, resolve);
      }
    }

    @Override
    public URL getResource(String name) {
      URL mine = findResource(name);
      return mine != null ? mine : super.getResource(name);
    }
  }
}
