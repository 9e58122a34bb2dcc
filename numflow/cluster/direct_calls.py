"""The calls a session makes to a ps task on Ray, over a TCP connection straight to the task's actor.

A Ray actor call costs 0.3-1 ms on one machine (the caller's core worker, the actor's, and the
object store for anything over 100 KB), and a training step makes two per ps task: most of a small
model's step. A round trip on an open connection costs 25-90 µs for a 31 KB model, and moves
4 MB in about half the time Ray does. So Ray finds the tasks (named actors), owns and places their
processes, and tells of their deaths; the calls themselves go over these connections.

Each actor listens on its node's address, on a port of the system's choosing, and lets a client in
only once it has answered a challenge with the HMAC of the task's key, which the actor gives out
only through Ray: the port trusts whom the Ray cluster trusts. A connection carries one call at a
time, so a client keeps a connection per call in flight. A message is its pickle (as Ray's own calls
are pickled) with its arrays left out, then their raw bytes, each received straight into the fresh
buffer that becomes the array; a lost connection (the task's process died) is ``TaskUnavailable`` at once, and
TCP keepalive notices a machine that went away silently.
"""

import contextlib
import hashlib
import hmac
import io
import pickle
import secrets
import socket
import struct
import threading

import numpy as np

from numflow.runtime.transport import TaskUnavailable

_HEADER = struct.Struct("<QI")  # the pickle's length, the number of array buffers after it
_CHALLENGE_BYTES = 32
_HANDSHAKE_TIMEOUT_S = 10
_KEEPALIVE = (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 2), ("TCP_KEEPCNT", 5))


class _Pickler(pickle.Pickler):
    """Pickles a message with its plain arrays left out, each named by its place in ``arrays``."""

    def __init__(self, file):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.arrays = []

    def persistent_id(self, obj):
        if type(obj) is not np.ndarray or obj.dtype.hasobject or obj.dtype.fields is not None:
            return None
        if not obj.flags.c_contiguous:
            obj = np.ascontiguousarray(obj)
        self.arrays.append(obj)
        return (len(self.arrays) - 1, obj.dtype.str, obj.shape)


class _Unpickler(pickle.Unpickler):
    """Rebuilds a message around its arrays' received buffers, which become the arrays (writable: this
    process owns them)."""

    def __init__(self, file, buffers):
        super().__init__(file)
        self._buffers = buffers

    def persistent_load(self, pid):
        index, dtype, shape = pid
        return self._buffers[index].view(dtype).reshape(shape)


def _send(sock, message):
    head = io.BytesIO()
    pickler = _Pickler(head)
    pickler.dump(message)
    sizes = struct.pack(f"<{len(pickler.arrays)}Q", *(a.nbytes for a in pickler.arrays))
    sock.sendall(_HEADER.pack(head.tell(), len(pickler.arrays)) + sizes + head.getbuffer())
    for array in pickler.arrays:
        if array.nbytes:
            sock.sendall(array.reshape(-1).view(np.uint8))


def _receive_exactly(sock, size):
    buffer = np.empty(size, np.uint8)  # not zeroed first, unlike a bytearray
    view = memoryview(buffer)
    received = 0
    while received < size:
        n = sock.recv_into(view[received:])
        if n == 0:
            raise EOFError("the connection closed")
        received += n
    return buffer


def _receive(sock):
    head_size, num_arrays = _HEADER.unpack(_receive_exactly(sock, _HEADER.size))
    sizes = struct.unpack(f"<{num_arrays}Q", _receive_exactly(sock, 8 * num_arrays))
    head = _receive_exactly(sock, head_size)
    arrays = [_receive_exactly(sock, size) for size in sizes]
    # From a peer that proved it holds the task's key.
    return _Unpickler(io.BytesIO(head), arrays).load()  # noqa: S301


def _tune(sock):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in _KEEPALIVE:
        if hasattr(socket, name):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)


def _proof(key, challenge):
    return hmac.new(key, challenge, hashlib.sha256).digest()


class Server:
    """Answers the calls of a task's clients: ``handler(method, args)`` on a thread per connection.

    ``address`` (host, port) and ``key`` are what a client needs (:class:`Client`).
    """

    def __init__(self, handler, host):
        self.key = secrets.token_bytes(32)
        self._handler = handler
        self._listener = socket.create_server((host, 0))
        self.address = (host, self._listener.getsockname()[1])
        threading.Thread(target=self._accept, name="numflow-direct-accept", daemon=True).start()

    def _accept(self):
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._serve, args=(sock,), name="numflow-direct-call", daemon=True).start()

    def _serve(self, sock):
        with sock:
            try:
                sock.settimeout(_HANDSHAKE_TIMEOUT_S)
                challenge = secrets.token_bytes(_CHALLENGE_BYTES)
                sock.sendall(challenge)
                if not hmac.compare_digest(_receive_exactly(sock, 32), _proof(self.key, challenge)):
                    return
                sock.settimeout(None)
                _tune(sock)
                while True:
                    method, args = _receive(sock)
                    answer = self._handler(method, args)
                    try:
                        _send(sock, answer)
                    except (TypeError, AttributeError, pickle.PicklingError) as e:  # raised before a byte is sent
                        _send(sock, ("error", "InternalError", None,
                                     f"The answer to {method} cannot be sent to the caller: {e}"))
            except (EOFError, OSError):
                return

    def close(self):
        with contextlib.suppress(OSError):  # already closed
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread, as close alone would not
        self._listener.close()


class Client:
    """Calls to one task's :class:`Server`, on as many connections as calls are in flight at once."""

    def __init__(self, address, key, name):
        self._address = address
        self._key = key
        self._name = name
        self._idle = []
        self._lock = threading.Lock()

    def submit(self, method, args):
        """Send the call ``method(*args)``: a pending call, whose answer :meth:`PendingCall.answer` waits for
        (and raises there the failure to send it, as it would a lost answer)."""
        with self._lock:
            sock = self._idle.pop() if self._idle else None
        try:
            if sock is None:
                sock = self._connect()
            _send(sock, (method, args))
        except (EOFError, OSError) as e:
            if sock is not None:
                sock.close()
            return PendingCall(self, None, f"{self._name} cannot be reached ({e})")
        return PendingCall(self, sock)

    def _connect(self):
        sock = socket.create_connection(self._address, timeout=_HANDSHAKE_TIMEOUT_S)
        try:
            sock.sendall(_proof(self._key, _receive_exactly(sock, _CHALLENGE_BYTES)))
            sock.settimeout(None)
            _tune(sock)
        except BaseException:
            sock.close()
            raise
        return sock

    def release(self, sock):
        with self._lock:
            self._idle.append(sock)

    def close(self):
        with self._lock:
            idle, self._idle = self._idle, []
        for sock in idle:
            sock.close()


class PendingCall:
    """A call sent on a connection of ``client`` (or that could not be: ``failure`` says why); its answer
    read once."""

    __slots__ = ("_client", "_sock", "_failure")

    def __init__(self, client, sock, failure=None):
        self._client = client
        self._sock = sock
        self._failure = failure

    def answer(self, timeout=None):
        """The task's answer; raises TaskUnavailable when the connection is lost or ``timeout`` s pass."""
        if self._failure is not None:
            raise TaskUnavailable(self._failure)
        sock = self._sock
        try:
            sock.settimeout(timeout)
            value = _receive(sock)
            sock.settimeout(None)
        except TimeoutError:
            sock.close()
            raise TaskUnavailable(f"no answer within {timeout:g} s") from None
        except (EOFError, OSError) as e:
            sock.close()
            raise TaskUnavailable(f"the task's process died or cannot be reached ({e})") from None
        self._client.release(sock)
        return value
