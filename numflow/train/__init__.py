"""``tf.train``: savers, optimizers, learning-rate schedules, moving averages, the global step, monitored
sessions and their hooks, device setters, clusters and servers."""

from numflow.checkpoint.reader import NewCheckpointReader, list_variables, load_checkpoint, load_variable
from numflow.checkpoint.state import generate_checkpoint_state_proto, update_checkpoint_state
from numflow.train.basic_session_run_hooks import (
    CheckpointSaverHook, CheckpointSaverListener, FeedFnHook, FinalOpsHook, LoggingTensorHook,
    NanLossDuringTrainingError, NanTensorHook, SecondOrStepTimer, StepCounterHook, StopAtStepHook, SummarySaverHook,
)
from numflow.train.cluster import ClusterSpec
from numflow.train.coordinator import Coordinator
from numflow.train.input import (
    batch, batch_join, input_producer, limit_epochs, match_filenames_once, maybe_batch, maybe_batch_join,
    maybe_shuffle_batch, maybe_shuffle_batch_join, range_input_producer, shuffle_batch, shuffle_batch_join,
    slice_input_producer, string_input_producer,
)
from numflow.train.queue_runner import QueueRunner, add_queue_runner, start_queue_runners
from numflow.train.device_setter import GreedyLoadBalancingStrategy, byte_size_load_fn, replica_device_setter
from numflow.train.learning_rate_decay import (
    cosine_decay, cosine_decay_restarts, exponential_decay, inverse_time_decay, linear_cosine_decay, natural_exp_decay,
    noisy_linear_cosine_decay, piecewise_constant, piecewise_constant_decay, polynomial_decay,
)
from numflow.train.monitored_session import (
    ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession, Scaffold, SessionCreator,
    SingularMonitoredSession, WorkerSessionCreator,
)
from numflow.framework.graph_io import export_meta_graph, import_meta_graph, write_graph
from numflow.train.moving_averages import ExponentialMovingAverage
from numflow.train.optimizer import Optimizer
from numflow.train.optimizers import (
    AdagradOptimizer, AdamOptimizer, GradientDescentOptimizer, MomentumOptimizer, RMSPropOptimizer,
)
from numflow.train.optimizers_more import (
    AdadeltaOptimizer, AdagradDAOptimizer, FtrlOptimizer, ProximalAdagradOptimizer, ProximalGradientDescentOptimizer,
)
from numflow.train.saver import Saver, checkpoint_exists, get_checkpoint_state, latest_checkpoint
from numflow.train.server import Server
from numflow.train.session_manager import SessionManager
from numflow.train.coordinator import LooperThread
from numflow.train.supervisor import Supervisor, basic_train_loop
from numflow.train.checkpoint_utils import (
    checkpoints_iterator, get_checkpoint_mtimes, init_from_checkpoint, remove_checkpoint,
)
from numflow.train.session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues
from numflow.train.step_hooks import GlobalStepWaiterHook, ProfilerHook
from numflow.train.warm_starting_util import VocabInfo, warm_start
from numflow.train.training_util import (
    assert_global_step, create_global_step, get_global_step, get_or_create_global_step, global_step,
)

__all__ = [
    "AdadeltaOptimizer", "AdagradDAOptimizer", "AdagradOptimizer", "AdamOptimizer", "CheckpointSaverHook",
    "CheckpointSaverListener",
    "ChiefSessionCreator",
    "ClusterSpec", "Coordinator", "ExponentialMovingAverage", "FeedFnHook", "FinalOpsHook",
    "FtrlOptimizer",
    "GlobalStepWaiterHook", "GradientDescentOptimizer", "GreedyLoadBalancingStrategy", "LoggingTensorHook",
    "MomentumOptimizer",
    "MonitoredSession", "MonitoredTrainingSession", "NanLossDuringTrainingError", "NanTensorHook", "Optimizer",
    "ProfilerHook",
    "ProximalAdagradOptimizer", "ProximalGradientDescentOptimizer",
    "RMSPropOptimizer", "Saver", "Scaffold", "SecondOrStepTimer", "Server", "SessionCreator", "SessionManager",
    "SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues", "SingularMonitoredSession",
    "LooperThread", "StepCounterHook", "SummarySaverHook", "Supervisor", "VocabInfo", "warm_start",
    "StopAtStepHook", "WorkerSessionCreator", "assert_global_step", "basic_train_loop", "byte_size_load_fn",
    "checkpoint_exists", "checkpoints_iterator", "get_checkpoint_mtimes", "init_from_checkpoint", "remove_checkpoint",
    "cosine_decay", "cosine_decay_restarts", "create_global_step", "exponential_decay", "export_meta_graph",
    "get_checkpoint_state", "import_meta_graph", "write_graph",
    "get_global_step", "get_or_create_global_step", "global_step", "inverse_time_decay", "latest_checkpoint",
    "linear_cosine_decay", "list_variables", "load_checkpoint", "load_variable", "natural_exp_decay",
    "noisy_linear_cosine_decay",
    "piecewise_constant", "piecewise_constant_decay", "polynomial_decay", "replica_device_setter",
    "summary_iterator",
    "NewCheckpointReader", "generate_checkpoint_state_proto", "update_checkpoint_state",
    "QueueRunner", "add_queue_runner", "batch", "batch_join", "input_producer", "limit_epochs",
    "match_filenames_once", "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join",
    "range_input_producer", "shuffle_batch", "shuffle_batch_join", "slice_input_producer",
    "start_queue_runners", "string_input_producer",
]


_EXAMPLE_MESSAGES = {"BytesList": "feature_pb2", "FloatList": "feature_pb2", "Int64List": "feature_pb2",
                     "Feature": "feature_pb2", "Features": "feature_pb2", "FeatureList": "feature_pb2",
                     "FeatureLists": "feature_pb2", "Example": "example_pb2", "SequenceExample": "example_pb2"}


def __getattr__(name):
    """``tf.train.Example`` and the other record messages, imported when first used (protobuf is not
    loaded by ``import numflow``)."""
    if name in _EXAMPLE_MESSAGES:
        import importlib

        return getattr(importlib.import_module(f"numflow.protos.{_EXAMPLE_MESSAGES[name]}"), name)
    raise AttributeError(f"module 'numflow.train' has no attribute {name!r}")


def summary_iterator(path):
    """The ``Event`` messages of an event file, in order (see ``numflow.summary.writer.summary_iterator``)."""
    from numflow.summary import writer

    return writer.summary_iterator(path)
