package io.sharestream.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.ExperimentalMethods;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.JavaConverters;
import scala.runtime.BoxedUnit;

/**
 * Spark 3.1 has no limit push-down for DataSource V2, so a rule of the session's optimizer finds
 * {@code LIMIT n} directly over a deltaSharing scan (only column projections between: a filter in between would make
 * the hint drop matching rows) and gives the scan {@code n} as the server's {@code limitHint}. The plan is unchanged.
 */
final class LimitHintRule extends Rule<LogicalPlan> {
  /** Adds the rule to {@code spark}'s optimizer, once. */
  static void install(SparkSession spark) {
    ExperimentalMethods experimental = spark.experimental();
    synchronized (experimental) {
      List<Rule<LogicalPlan>> rules = new ArrayList<>(
          JavaConverters.seqAsJavaListConverter(experimental.extraOptimizations()).asJava());
      if (rules.stream().noneMatch(r -> r instanceof LimitHintRule)) {
        rules.add(new LimitHintRule());
        experimental.extraOptimizations_$eq(JavaConverters.asScalaBufferConverter(rules).asScala().toSeq());
      }
    }
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    plan.foreach(node -> {
      if (node instanceof LocalLimit) {
        Expression limit = ((LocalLimit) node).limitExpr();
        LogicalPlan child = ((LocalLimit) node).child();
        while (child instanceof Project) {
          child = ((Project) child).child();
        }
        if (limit instanceof Literal && ((Literal) limit).value() instanceof Number
            && child instanceof DataSourceV2ScanRelation
            && ((DataSourceV2ScanRelation) child).scan() instanceof SharingScan) {
          ((SharingScan) ((DataSourceV2ScanRelation) child).scan())
              .limitHint(((Number) ((Literal) limit).value()).longValue());
        }
      }
      return BoxedUnit.UNIT;
    });
    return plan;
  }
}
