package io.sharestream.spark;

import org.apache.spark.broadcast.Broadcast;

/**
 * A value made where it is used, under Spark's broadcast type: lets an executor build a Parquet reader factory with
 * a Hadoop conf of its own (a file's narrow types, {@link FileLayout#forFile}). Nothing is sent or stored.
 */
final class LocalBroadcast<T> extends Broadcast<T> {
  private static final long serialVersionUID = 1L;
  private final T value;

  LocalBroadcast(T value) {
    super(-1L, scala.reflect.ClassTag$.MODULE$.apply(Object.class));
    this.value = value;
  }

  @Override
  public T getValue() {
    return value;
  }

  @Override
  public void doUnpersist(boolean blocking) {
  }

  @Override
  public void doDestroy(boolean blocking) {
  }
}
