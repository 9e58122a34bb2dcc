"""The direct calls to a ps task's actor (``cluster.direct_calls``), over real loopback connections."""

import threading

import numpy as np
import pytest

from numflow.cluster import direct_calls
from numflow.runtime.transport import TaskUnavailable


class _Task:
    def __init__(self):
        self.release = threading.Event()

    def echo(self, *values):
        return values

    def lock(self):
        return threading.Lock()

    def wait(self):
        self.release.wait(10)
        return "released"


@pytest.fixture
def task():
    task = _Task()
    server = direct_calls.Server(lambda method, args: getattr(task, method)(*args), "127.0.0.1")
    client = direct_calls.Client(server.address, server.key, "/job:ps/replica:0/task:0")
    yield task, server, client
    task.release.set()
    client.close()
    server.close()


def test_arrays_of_every_layout_cross_both_ways_equal_and_writable(task):
    _, _, client = task
    read_only = np.arange(5.0)
    read_only.flags.writeable = False
    values = [np.arange(12, dtype=np.float32).reshape(3, 4), np.arange(20.0)[::3], np.asfortranarray(np.eye(3)),
              np.array(["ab", "c"]), np.array([b"x", b"yz"], dtype=object), np.zeros((0, 2), np.int64),
              np.array(7, np.int8), np.arange(4, dtype=">i4"), read_only, np.float32(2.5), "text", None]
    answer = client.submit("echo", values).answer()
    assert len(answer) == len(values)
    for sent, received in zip(values, answer):
        if isinstance(sent, np.ndarray):
            assert received.dtype == sent.dtype and received.shape == sent.shape
            np.testing.assert_array_equal(received, sent)
            assert received.flags.writeable  # this process owns it: no copy needed to hand it to a user
        else:
            assert received == sent and type(received) is type(sent)


def test_calls_in_flight_at_once_each_get_their_own_connection(task):
    owner, _, client = task
    waiting = client.submit("wait", ())
    echoed = client.submit("echo", (np.arange(3),)).answer()  # answered while the first still waits
    np.testing.assert_array_equal(echoed[0], np.arange(3))
    owner.release.set()
    assert waiting.answer(10) == "released"


def test_a_client_without_the_key_gets_no_answer(task):
    _, server, _ = task
    intruder = direct_calls.Client(server.address, b"\0" * 32, "/job:ps/replica:0/task:0")
    with pytest.raises(TaskUnavailable, match="cannot be reached"):
        intruder.submit("echo", (1,)).answer(5)


def test_a_call_past_its_timeout_is_unavailable(task):
    _, _, client = task
    with pytest.raises(TaskUnavailable, match="no answer within 0.2 s"):
        client.submit("wait", ()).answer(0.2)


def test_a_stopped_task_is_unavailable_at_the_answer_not_the_send(task):
    _, server, client = task
    server.close()
    pending = client.submit("echo", (1,))  # connecting fails: reported when the answer is asked for
    with pytest.raises(TaskUnavailable, match="/job:ps/replica:0/task:0 cannot be reached"):
        pending.answer()


def test_an_answer_that_cannot_be_sent_is_an_error_answer_and_the_connection_goes_on(task):
    _, _, client = task
    status, class_name, op_name, message = client.submit("lock", ()).answer()
    assert (status, class_name, op_name) == ("error", "InternalError", None)
    assert message.startswith("The answer to lock cannot be sent to the caller: cannot pickle")
    assert client.submit("echo", (1,)).answer() == (1,)
