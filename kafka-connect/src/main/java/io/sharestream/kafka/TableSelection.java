package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.model.ListedItem;
import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;

/**
 * Which tables the connector streams: tables named in {@code tables}, every table of a share ({@code <share>.*}) or
 * of a schema ({@code <share>.<schema>.*}) listed there, every table whose {@code <share>.<schema>.<table>} name a
 * regex of {@code tables.include.regex} matches, less those a regex of {@code tables.exclude.regex} matches. Names
 * and regexes match case-insensitively (names are, in the protocol); a regex must match the whole name. Named tables
 * are taken as named; patterns select among the tables the server lists ({@link #list}).
 */
final class TableSelection {
  private final List<TableRef> named = new ArrayList<>();
  /** Lower-case share names of {@code <share>.*}. */
  private final Set<String> shares = new LinkedHashSet<>();
  /** Lower-case {@code share.schema} of {@code <share>.<schema>.*}. */
  private final Set<String> schemas = new LinkedHashSet<>();
  private final List<Pattern> include;
  private final List<Pattern> exclude;

  /** Parses the three settings; a {@link ConfigException} names the setting at fault. */
  TableSelection(List<String> tables, List<String> includeRegex, List<String> excludeRegex) {
    for (String entry : tables) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      String[] parts = e.split("\\.", -1);
      boolean wildcard = parts[parts.length - 1].equals("*");
      if (e.indexOf('*') >= 0 && !(wildcard && (parts.length == 2 || parts.length == 3)
          && e.indexOf('*') == e.length() - 1 && !parts[0].isEmpty() && !parts[1].isEmpty())) {
        throw new ConfigException(DeltaSharingSourceConfig.TABLES, String.join(",", tables), "'" + e + "': '*' "
            + "may only stand for a whole share or schema, as <share>.* or <share>.<schema>.*");
      }
      if (wildcard) {
        (parts.length == 2 ? shares : schemas).add(e.substring(0, e.length() - 2).toLowerCase(Locale.ROOT));
      } else {
        try {
          TableRef t = TableRef.parse(e, "'" + DeltaSharingSourceConfig.TABLES + "'");
          if (!named.contains(t)) {
            named.add(t);
          }
        } catch (DeltaSharingException ex) {
          throw new ConfigException(DeltaSharingSourceConfig.TABLES, String.join(",", tables), ex.getMessage()
              + " (or a whole share or schema, as <share>.* or <share>.<schema>.*)");
        }
      }
    }
    include = regexes(DeltaSharingSourceConfig.TABLES_INCLUDE_REGEX, includeRegex);
    exclude = regexes(DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX, excludeRegex);
    if (named.isEmpty() && shares.isEmpty() && schemas.isEmpty() && include.isEmpty()) {
      throw new ConfigException(DeltaSharingSourceConfig.TABLES, String.join(",", tables), "name at least one "
          + "table (<share>.<schema>.<table>), share (<share>.*) or schema (<share>.<schema>.*), or set "
          + DeltaSharingSourceConfig.TABLES_INCLUDE_REGEX);
    }
  }

  /** Compiled {@code values} of {@code setting}; a {@link ConfigException} names it. */
  static List<Pattern> regexes(String setting, List<String> values) {
    List<Pattern> out = new ArrayList<>();
    for (String v : values) {
      if (v.trim().isEmpty()) {
        continue;
      }
      try {
        out.add(Pattern.compile(v.trim(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
      } catch (PatternSyntaxException e) {
        throw new ConfigException(setting, String.join(",", values), "'" + v.trim() + "' is not a regular "
            + "expression: " + e.getDescription());
      }
    }
    return out;
  }

  /** Whether the selection has patterns, so the server's lists decide what it holds. */
  boolean hasPatterns() {
    return !shares.isEmpty() || !schemas.isEmpty() || !include.isEmpty();
  }

  /** The tables named one by one, less the excluded ones. */
  List<TableRef> named() {
    List<TableRef> out = new ArrayList<>();
    for (TableRef t : named) {
      if (!excluded(t)) {
        out.add(t);
      }
    }
    return out;
  }

  /** Whether {@code table} is selected: named, or in a listed share or schema, or included; and not excluded. */
  boolean matches(TableRef table) {
    return !excluded(table) && (named.contains(table) || matchesPattern(table));
  }

  private boolean matchesPattern(TableRef t) {
    String share = t.share().toLowerCase(Locale.ROOT);
    return shares.contains(share) || schemas.contains(share + "." + t.schema().toLowerCase(Locale.ROOT))
        || include.stream().anyMatch(p -> p.matcher(t.toString()).matches());
  }

  private boolean excluded(TableRef t) {
    return exclude.stream().anyMatch(p -> p.matcher(t.toString()).matches());
  }

  /** The setting that selected {@code table} (for messages about it). */
  String selectedBy(TableRef table) {
    return named.contains(table) || !include.stream().anyMatch(p -> p.matcher(table.toString()).matches())
        ? DeltaSharingSourceConfig.TABLES : DeltaSharingSourceConfig.TABLES_INCLUDE_REGEX;
  }

  /**
   * The selected tables of {@code listed} (tables a server listed), with the named ones whether listed or not, in
   * name order.
   */
  List<TableRef> select(Collection<TableRef> listed) {
    Set<TableRef> out = new LinkedHashSet<>(named());
    for (TableRef t : listed) {
      if (matches(t)) {
        out.add(t);
      }
    }
    List<TableRef> sorted = new ArrayList<>(out);
    sorted.sort(Comparator.comparing(t -> t.toString().toLowerCase(Locale.ROOT)));
    return sorted;
  }

  /**
   * The selected tables as the server lists them now: the tables of every share a pattern may reach (every share
   * the profile grants when there are include regexes), plus the named ones. A share of {@code <share>.*} or
   * {@code <share>.<schema>.*} the server does not know has no tables when {@code missingSharesAreEmpty} (it was
   * unshared); else its {@link TableNotFoundException} is thrown.
   */
  List<TableRef> list(DeltaSharingClient client, boolean missingSharesAreEmpty) {
    Set<String> toList = new LinkedHashSet<>();
    if (!include.isEmpty()) {
      client.listShares().forEachRemaining(s -> toList.add(s.name()));
    }
    toList.addAll(shares);
    schemas.forEach(s -> toList.add(s.substring(0, s.indexOf('.'))));
    List<TableRef> listed = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String share : toList) {
      if (!seen.add(share.toLowerCase(Locale.ROOT))) {
        continue;
      }
      try {
        for (Iterator<ListedItem> it = client.listAllTables(share); it.hasNext(); ) {
          ListedItem item = it.next();
          listed.add(new TableRef(item.share() == null || item.share().isEmpty() ? share : item.share(),
              item.schema(), item.name()));
        }
      } catch (TableNotFoundException e) {
        if (!missingSharesAreEmpty) {
          throw e;
        }
      }
    }
    return select(listed);
  }

  /** The patterns as the settings give them, for log lines. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    named.forEach(t -> parts.add(t.toString()));
    shares.forEach(s -> parts.add(s + ".*"));
    schemas.forEach(s -> parts.add(s + ".*"));
    include.forEach(p -> parts.add("/" + p.pattern() + "/"));
    return String.join(", ", parts) + (exclude.isEmpty() ? "" : " except " + exclude.stream()
        .map(p -> "/" + p.pattern() + "/").collect(Collectors.joining(", ")));
  }
}
