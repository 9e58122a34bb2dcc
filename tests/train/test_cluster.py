"""ClusterSpec: the forms TensorFlow's tf.train.ClusterSpec accepts, and its errors.

Expected values were read from TensorFlow 2.21's tf.compat.v1.train.ClusterSpec (graph mode).
"""

import pytest

from numflow.train.cluster import ClusterSpec

GUIDE = {
    "ps": ["ps0:2222", "ps1:2222"],
    "worker": ["worker0:2222", "worker1:2222", "worker2:2222"],
}


def test_dense_jobs():
    cluster = ClusterSpec(GUIDE)
    assert cluster.jobs == ["ps", "worker"]
    assert cluster.num_tasks("ps") == 2 and cluster.num_tasks("worker") == 3
    assert cluster.task_indices("worker") == [0, 1, 2]
    assert cluster.task_address("worker", 1) == "worker1:2222"
    assert cluster.job_tasks("ps") == ["ps0:2222", "ps1:2222"]
    assert cluster.as_dict() == GUIDE
    assert bool(cluster)


def test_jobs_keep_the_given_order_and_a_copy_sorts_them():
    cluster = ClusterSpec({"worker": ["w0"], "ps": ["p0"]})
    assert cluster.jobs == ["worker", "ps"]
    assert ClusterSpec(cluster).jobs == ["ps", "worker"]  # as TF, which copies through a ClusterDef


def test_sparse_jobs():
    cluster = ClusterSpec({"worker": {1: "w1:2222", 3: "w3"}, "ps": ["a"]})
    assert cluster.num_tasks("worker") == 2
    assert cluster.task_indices("worker") == [1, 3]
    assert cluster.job_tasks("worker") == [None, "w1:2222", None, "w3"]
    assert cluster.as_dict() == {"worker": {1: "w1:2222", 3: "w3"}, "ps": ["a"]}
    with pytest.raises(ValueError, match="No task with index 0 in job 'worker'"):
        cluster.task_address("worker", 0)


def test_dict_tasks_with_dense_indices_become_a_list():
    cluster = ClusterSpec({"w": {"1": "a", "0": "b"}})  # string keys are converted, as in TF
    assert cluster.as_dict() == {"w": ["b", "a"]}
    assert ClusterSpec({"w": ("a", "b")}).as_dict() == {"w": ["a", "b"]}


def test_empty_cluster_and_empty_job():
    assert not ClusterSpec({})
    cluster = ClusterSpec({"ps": []})
    assert bool(cluster)
    assert cluster.as_dict() == {"ps": {}}
    assert cluster.num_tasks("ps") == 0
    assert cluster.job_tasks("ps") == []  # TF raises "max() arg is an empty sequence"


def test_copy_from_cluster_spec():
    original = ClusterSpec({"w": {3: "c", 1: "a"}, "a": ["z"]})
    copy = ClusterSpec(original)
    assert copy == original
    assert copy.as_dict() == {"a": ["z"], "w": {1: "a", 3: "c"}}
    assert copy is not original


def test_repr_sorts_jobs():
    cluster = ClusterSpec({"w": {3: "c", 1: "a"}, "a": ["z"]})
    assert repr(cluster) == "ClusterSpec({'a': ['z'], 'w': {1: 'a', 3: 'c'}})"


def test_equality():
    cluster = ClusterSpec(GUIDE)
    assert cluster == ClusterSpec(GUIDE)
    assert cluster == ClusterSpec(cluster)
    assert cluster != ClusterSpec({"ps": ["x"]})
    # Compared with a dict, as in TF, the dict must map indices to addresses.
    assert cluster != GUIDE
    assert cluster == {
        "ps": {0: "ps0:2222", 1: "ps1:2222"},
        "worker": {0: "worker0:2222", 1: "worker1:2222", 2: "worker2:2222"},
    }
    assert cluster != 5
    with pytest.raises(TypeError):
        hash(cluster)


def test_results_are_copies():
    cluster = ClusterSpec(GUIDE)
    cluster.job_tasks("ps").append("z")
    cluster.as_dict()["ps"].append("z")
    cluster.jobs.append("z")
    assert cluster.as_dict() == GUIDE
    given = {"w": ["a"]}
    ClusterSpec(given)
    assert given == {"w": ["a"]}


def test_bytes_are_decoded():
    cluster = ClusterSpec({b"w": [b"a:1"]})
    assert cluster.jobs == ["w"]
    assert cluster.task_address("w", 0) == "a:1"


@pytest.mark.parametrize("method", ["num_tasks", "task_indices", "job_tasks"])
def test_unknown_job(method):
    with pytest.raises(ValueError, match="No such job in cluster: 'chief'"):
        getattr(ClusterSpec(GUIDE), method)("chief")


def test_task_address_errors():
    cluster = ClusterSpec(GUIDE)
    with pytest.raises(ValueError, match="No such job in cluster: 'x'"):
        cluster.task_address("x", 0)
    with pytest.raises(ValueError, match="No task with index 5 in job 'worker'"):
        cluster.task_address("worker", 5)
    with pytest.raises(ValueError, match="No task with index '1' in job 'worker'"):
        cluster.task_address("worker", "1")  # no conversion, as in TF


@pytest.mark.parametrize("cluster", [["a"], None, "ps:1", 3])
def test_cluster_must_be_a_dict(cluster):
    with pytest.raises(TypeError, match="`cluster` must be a dictionary mapping one or more job names"):
        ClusterSpec(cluster)


@pytest.mark.parametrize("tasks", ["a:1", 3, None])
def test_tasks_must_be_a_list_or_dict(tasks):
    with pytest.raises(TypeError, match="The tasks for job 'w' must be a list or a dictionary"):
        ClusterSpec({"w": tasks})


def test_names_and_addresses_must_be_strings():
    with pytest.raises(TypeError, match="Job name 1 must be bytes or unicode"):
        ClusterSpec({1: ["a"]})
    with pytest.raises(TypeError, match="Task address 1 must be bytes or unicode"):
        ClusterSpec({"w": [1]})
    with pytest.raises(TypeError, match="Task address None must be bytes or unicode"):
        ClusterSpec({"w": [None]})


def test_task_indices_must_be_non_negative_integers():
    with pytest.raises(ValueError, match="Task index 'x' for job 'w' is not an integer"):
        ClusterSpec({"w": {"x": "a"}})
    with pytest.raises(ValueError, match="Task index -1 for job 'w' must be non-negative"):
        ClusterSpec({"w": {-1: "a"}})
