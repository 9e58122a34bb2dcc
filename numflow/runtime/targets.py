"""Session targets: what devices and variable containers a session's target string gives it.

``''`` is a local session: the host's devices and a container of its own. A server registers its
target here (``register``), and every session on that target shares the server's containers.
"""

from numflow.devices import local_devices
from numflow.framework import errors
from numflow.runtime.resources import ResourceContainer

_servers = {}


def register(target, resolver):
    """Make ``target`` resolve through ``resolver(config) -> (devices, containers)``."""
    _servers[target] = resolver


def unregister(target):
    _servers.pop(target, None)


def resolve(target, config):
    """``(devices, containers)`` for a session on ``target``; containers keyed by (job, task)."""
    if not target:
        devices = local_devices("localhost", 0, config.device_count)
        return devices, {("localhost", 0): ResourceContainer()}
    resolver = _servers.get(target)
    if resolver is None:
        raise errors.UnavailableError(
            None, None,
            f"No server is serving target '{target}' in this process. Create it with "
            "tf.train.Server(...) (or tf.train.Server.create_local_server()) and pass server.target.",
        )
    return resolver(config)
