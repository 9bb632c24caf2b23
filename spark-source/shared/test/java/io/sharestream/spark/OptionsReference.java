package io.sharestream.spark;

import java.util.List;

/** Writes {@code docs/spark-options.md} from {@link DeltaSharingOptions#OPTIONS} and {@link SessionConfs}. */
final class OptionsReference {
  static final String FILE = "docs/spark-options.md";
  static final String REGENERATE = "mvn -pl spark-source/v3.5 test -Dtest=OptionsReferenceTest -Ddocs.write=true";

  private OptionsReference() {}

  static String markdown() {
    StringBuilder b = new StringBuilder()
        .append("# Spark source options\n\n")
        .append("<!-- Generated from DeltaSharingOptions and SessionConfs by OptionsReferenceTest; do not edit. ")
        .append("Regenerate (any Spark line): `").append(REGENERATE).append("`. -->\n\n")
        .append("`spark.readStream.format(\"deltaSharing\")` and `spark.read.format(\"deltaSharing\")` take these ")
        .append("options, in any case; an unknown option is an error naming the known ones. The table is ")
        .append("`.load(\"<profile-file>#<share>.<schema>.<table>\")`, or `.load(\"<share>.<schema>.<table>\")` ")
        .append("with the profile as options. What each error means: [errors](errors.md).\n\n")
        .append("## Options\n\n");
    table(b, "option", DeltaSharingOptions.OPTIONS);
    b.append("\n## Session confs\n\n")
        .append("Session-wide (`spark.conf.set`, `--conf`), read when a query resolves the table; a bad value fails ")
        .append("naming the conf. The reference client's `spark.delta.sharing.*` confs keep its meaning.\n\n");
    table(b, "conf", SessionConfs.CONFS);
    b.append("\nThese reference client confs are accepted without effect (logged once): the source sizes its own ")
        .append("connection pool, reads profiles itself and always asks for the end-of-stream marker.\n\n");
    SessionConfs.NOT_APPLIED.forEach(n -> b.append("- `").append(n).append("`\n"));
    b.append("\n## Column types\n\n").append(SparkSchemas.TYPES_DOC).append("\n");
    return b.toString();
  }

  private static void table(StringBuilder b, String what, List<DeltaSharingOptions.Doc> docs) {
    b.append("| ").append(what).append(" | default | meaning |\n|---|---|---|\n");
    for (DeltaSharingOptions.Doc d : docs) {
      String dflt = d.defaultValue.matches("\\S+") ? "`" + d.defaultValue + "`" : text(d.defaultValue);
      b.append("| `").append(d.name).append("` | ").append(dflt).append(" | ").append(text(d.meaning))
          .append(" |\n");
    }
  }

  /** Text fit for a table cell: '<' would open an HTML tag, '|' end the cell, a leading '_' start emphasis. */
  private static String text(String s) {
    return s.replace("|", "\\|").replace("<", "\\<").replaceAll("(?<!\\w)_", "\\\\_");
  }
}
