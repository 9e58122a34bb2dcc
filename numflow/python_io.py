"""``tf.python_io`` (also ``tf.io``'s record names): TFRecord files."""

from numflow.records import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]
