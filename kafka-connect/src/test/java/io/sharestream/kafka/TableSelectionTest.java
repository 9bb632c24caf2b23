package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.profile.TableRef;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Which tables names, whole shares and schemas, and include and exclude regexes select. */
class TableSelectionTest {
  private static final List<TableRef> LISTED = refs("sales.eu.orders", "sales.eu.customers", "sales.us.orders",
      "sales.us.tmp_orders", "hr.people.staff", "hr.people.salaries");

  private static List<TableRef> refs(String... names) {
    return Arrays.stream(names).map(n -> TableRef.parse(n, "test")).collect(Collectors.toList());
  }

  private static TableSelection selection(String tables, String include, String exclude) {
    return new TableSelection(List.of(tables.split(",")), List.of(include.split(",")), List.of(exclude.split(",")));
  }

  private static List<String> selected(String tables, String include, String exclude) {
    return selection(tables, include, exclude).select(LISTED).stream().map(TableRef::toString)
        .collect(Collectors.toList());
  }

  @Test
  void namedTablesAreSelectedWhetherListedOrNotAndNeedNoListing() {
    assertThat(selected("sales.eu.orders, other.x.y", "", "")).containsExactly("other.x.y", "sales.eu.orders");
    assertThat(selection("sales.eu.orders", "", "").hasPatterns()).isFalse();
  }

  @Test
  void aShareOrASchemaSelectsEveryTableListedInIt() {
    assertThat(selected("sales.*", "", "")).containsExactly("sales.eu.customers", "sales.eu.orders",
        "sales.us.orders", "sales.us.tmp_orders");
    assertThat(selected("SALES.US.*,hr.people.staff", "", "")).containsExactly("hr.people.staff",
        "sales.us.orders", "sales.us.tmp_orders");
    assertThat(selection("sales.*", "", "").hasPatterns()).isTrue();
  }

  @Test
  void includeRegexesMatchWholeNamesCaseInsensitivelyAndExcludeRegexesWinOverEverySetting() {
    assertThat(selected("", ".*\\.orders", "")).containsExactly("sales.eu.orders", "sales.us.orders");
    assertThat(selected("", "orders", "")).as("a whole-name match").isEmpty();
    assertThat(selected("sales.*,hr.people.salaries", "HR\\..*\\.STAFF", "sales\\..*\\.tmp_.*,.*\\.salaries"))
        .containsExactly("hr.people.staff", "sales.eu.customers", "sales.eu.orders", "sales.us.orders");
    TableSelection s = selection("sales.*", "", ".*tmp.*");
    assertThat(s.matches(TableRef.parse("sales.any.thing", "t"))).isTrue();
    assertThat(s.matches(TableRef.parse("sales.us.tmp_orders", "t"))).isFalse();
    assertThat(s.matches(TableRef.parse("hr.people.staff", "t"))).isFalse();
  }

  @Test
  void badEntriesAndRegexesAreRefusedNamingTheirSetting() {
    for (String bad : List.of("*", "sales", "sales.*.orders", "sales.eu.ord*", "*.eu.orders", "sales..*")) {
      assertThatThrownBy(() -> selection(bad, "", "")).as(bad).isInstanceOf(ConfigException.class)
          .hasMessageContaining("configuration tables");
    }
    assertThatThrownBy(() -> selection("", "sales.(eu", "")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("configuration tables.include.regex").hasMessageContaining("'sales.(eu'");
    assertThatThrownBy(() -> selection("sales.*", "", "[")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("configuration tables.exclude.regex");
    assertThatThrownBy(() -> selection(" , ", "", ".*")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("name at least one table");
  }
}
