"""The Spark side of docker-compose.yml: the user guide's examples on the demo table, printed to the console.

spark-submit --jars sharestream-spark-3.5_2.12-<version>.jar events_stream.py \
    <profile file>#<share>.<schema>.<table> <checkpoint directory>

Three streaming queries over one stream of the shared table (from version 0, commits that rewrite or remove data
skipped, as the table writer's UPDATEs and DELETEs do):
  events     every new row, as it arrives;
  purchases  the running count of purchases per user (filter + groupBy, complete mode);
  windows    events per type in one-minute windows of event_time, with a two-minute watermark (update mode).
"""
import sys

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, window

if len(sys.argv) != 3:
    sys.exit("usage: events_stream.py <profile>#<share>.<schema>.<table> <checkpoint directory>")
table_path, checkpoints = sys.argv[1], sys.argv[2].rstrip("/")

spark = SparkSession.builder.appName("sharestream-demo").getOrCreate()
spark.sparkContext.setLogLevel("WARN")

events = (spark.readStream.format("deltaSharing")
          .option("startingVersion", "0")
          .option("skipChangeCommits", "true")
          .load(table_path))


def console(frame, name, mode):
    return (frame.writeStream.queryName(name).outputMode(mode)
            .format("console").option("truncate", "false").option("numRows", "20")
            .option("checkpointLocation", checkpoints + "/" + name)
            .trigger(processingTime="10 seconds")
            .start())


console(events, "events", "append")

console(events.filter(col("event_type") == "purchase").groupBy("user_id").count(), "purchases", "complete")

console(events.withWatermark("event_time", "2 minutes")
        .groupBy(window(col("event_time"), "1 minute"), col("event_type")).count(),
        "windows", "update")

spark.streams.awaitAnyTermination()
