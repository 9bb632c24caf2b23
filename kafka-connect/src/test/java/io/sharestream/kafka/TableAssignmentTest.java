package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Tables keep their task when others come or go, stay balanced over the tasks, and do not depend on the order they
 * are listed in; dealing them round-robin in name order (as a discovered share lists them) would move most.
 */
class TableAssignmentTest {
  private static List<TableRef> tables(String... names) {
    return Arrays.stream(names).map(n -> TableRef.parse(n, "test")).collect(Collectors.toList());
  }

  private static List<TableRef> numbered(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> TableRef.parse(String.format("sales.eu.orders_%02d", i), "test"))
        .collect(Collectors.toList());
  }

  /** Each table's task. */
  private static Map<TableRef, Integer> owners(List<List<TableRef>> assignment) {
    Map<TableRef, Integer> out = new HashMap<>();
    for (int k = 0; k < assignment.size(); k++) {
      for (TableRef t : assignment.get(k)) {
        out.put(t, k);
      }
    }
    return out;
  }

  /** Tables in both assignments that changed task. */
  private static long moved(Map<TableRef, Integer> before, Map<TableRef, Integer> after) {
    return before.keySet().stream().filter(after::containsKey).filter(t -> !before.get(t).equals(after.get(t)))
        .count();
  }

  /** The former assignment: the tables, in name order, dealt to min(maxTasks, tables) tasks. */
  private static Map<TableRef, Integer> roundRobin(List<TableRef> tables, int maxTasks) {
    List<TableRef> sorted = new ArrayList<>(tables);
    sorted.sort((a, b) -> a.toString().compareTo(b.toString()));
    Map<TableRef, Integer> out = new HashMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      out.put(sorted.get(i), i % Math.min(maxTasks, sorted.size()));
    }
    return out;
  }

  private static void assertBalanced(List<List<TableRef>> assignment, int tables, int maxTasks) {
    int tasks = Math.min(maxTasks, tables);
    assertThat(assignment).hasSize(tasks);
    assertThat(assignment.stream().mapToInt(List::size).sum()).isEqualTo(tables);
    for (List<TableRef> task : assignment) {
      assertThat(task.size()).as("tables of a task in %s", assignment)
          .isBetween(tables / tasks, (tables + tasks - 1) / tasks);
    }
  }

  @Test
  void addingOrRemovingTwoOfTwentyTablesOverFourTasksMovesFewOthers() {
    List<TableRef> twenty = numbered(0, 20);
    List<TableRef> twentyTwo = new ArrayList<>(twenty);
    twentyTwo.addAll(tables("sales.eu.orders_03a", "sales.eu.orders_11a")); // in name order: amid the others
    List<TableRef> eighteen = new ArrayList<>(twenty);
    eighteen.removeAll(tables("sales.eu.orders_02", "sales.eu.orders_09"));

    Map<TableRef, Integer> before = owners(TableAssignment.assign(twenty, 4));
    List<List<TableRef>> added = TableAssignment.assign(twentyTwo, 4);
    List<List<TableRef>> removed = TableAssignment.assign(eighteen, 4);

    assertBalanced(added, 22, 4);
    assertBalanced(removed, 18, 4);
    long movedByAdd = moved(before, owners(added));
    long movedByRemove = moved(before, owners(removed));
    assertThat(movedByAdd).as("tables moved by adding two").isLessThanOrEqualTo(3);
    assertThat(movedByRemove).as("tables moved by removing two").isLessThanOrEqualTo(3);
    // the same changes dealt round-robin in name order move most of the twenty
    assertThat(moved(roundRobin(twenty, 4), roundRobin(twentyTwo, 4))).isGreaterThanOrEqualTo(12);
    assertThat(moved(roundRobin(twenty, 4), roundRobin(eighteen, 4))).isGreaterThanOrEqualTo(12);
  }

  @Test
  void overManyRandomSharesAnAddOrRemoveMovesAFewTablesAtMost() {
    Random random = new Random(24);
    long movedInAll = 0;
    for (int trial = 0; trial < 300; trial++) {
      List<TableRef> all = new ArrayList<>();
      for (int i = 0; i < 22; i++) {
        all.add(TableRef.parse("s" + random.nextInt(50) + ".sc" + random.nextInt(50) + ".t" + random.nextInt(1 << 20),
            "test"));
      }
      Map<TableRef, Integer> before = owners(TableAssignment.assign(all.subList(0, 20), 4));
      List<List<TableRef>> after = TableAssignment.assign(all, 4);
      assertBalanced(after, 22, 4);
      long moved = moved(before, owners(after)) + moved(owners(after), owners(TableAssignment.assign(
          all.subList(2, 22), 4)));
      assertThat(moved).as("moved by an add and a remove of two in %s", all).isLessThanOrEqualTo(10);
      movedInAll += moved;
    }
    assertThat(movedInAll / 600.0).as("tables moved per change, on average").isLessThan(2.0);
  }

  @Test
  void theListedOrderMakesNoDifference() {
    List<TableRef> listed = numbered(0, 13);
    List<TableRef> shuffled = new ArrayList<>(listed);
    Collections.shuffle(shuffled, new Random(7));
    assertThat(TableAssignment.assign(shuffled, 5)).isEqualTo(TableAssignment.assign(listed, 5));
    assertBalanced(TableAssignment.assign(listed, 5), 13, 5);
  }

  @Test
  void fewerTablesThanTasksGiveOneTablePerTaskAndNoEmptyTask() {
    List<List<TableRef>> assignment = TableAssignment.assign(numbered(0, 3), 8);
    assertThat(assignment).hasSize(3).allSatisfy(task -> assertThat(task).hasSize(1));
  }

  @Test
  void theConnectorGivesEachTaskItsTablesNumberAndShareOfTheRecordsInFlight() {
    DeltaSharingSourceConnector connector = new DeltaSharingSourceConnector();
    Map<String, String> props = new HashMap<>();
    props.put(DeltaSharingSourceConfig.ENDPOINT, "http://localhost:1/");
    props.put(DeltaSharingSourceConfig.BEARER_TOKEN, "token");
    props.put(DeltaSharingSourceConfig.TABLES, numbered(0, 7).stream().map(TableRef::toString)
        .collect(Collectors.joining(",")));
    connector.start(props);
    List<Map<String, String>> configs = connector.taskConfigs(3);
    List<List<TableRef>> expected = TableAssignment.assign(numbered(0, 7), 3);
    assertThat(configs).hasSize(3);
    for (int k = 0; k < 3; k++) {
      assertThat(configs.get(k)).containsEntry(DeltaSharingSourceConnector.TASK_ID, Integer.toString(k))
          .containsEntry(DeltaSharingSourceConfig.TABLES, expected.get(k).stream().map(TableRef::toString)
              .collect(Collectors.joining(",")));
      assertThat(new DeltaSharingSourceConfig(configs.get(k)).recordsInFlightMax())
          .as("a third of the connector's 5,000 records in flight").isEqualTo(1667);
    }
    props.put(DeltaSharingSourceConfig.RECORDS_IN_FLIGHT_MAX, "2");
    connector.start(props);
    assertThat(connector.taskConfigs(3)).as("at least one record each").allSatisfy(c ->
        assertThat(new DeltaSharingSourceConfig(c).recordsInFlightMax()).isEqualTo(1));
    assertThat(new DeltaSharingSourceConfig(props).recordsInFlightMax()).as("outside task configs: all of it")
        .isEqualTo(2);
  }
}
