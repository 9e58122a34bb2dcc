"""Compare what two runs of a program printed: the same text, numbers equal to float rounding."""

import re

_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[A-Za-z_]+|\S")
_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")


def differences(expected, actual, rtol=1e-5, atol=1e-6):
    """The first few places where ``actual`` differs from ``expected``: ``(token index, expected, actual)``.

    Words and punctuation must be equal; numbers within ``atol + rtol * |expected|``.
    """
    want, got = _TOKEN.findall(expected), _TOKEN.findall(actual)
    found = []
    for i, (a, b) in enumerate(zip(want, got)):
        if a == b:
            continue
        if _NUMBER.match(a) and _NUMBER.match(b) and abs(float(a) - float(b)) <= atol + rtol * abs(float(a)):
            continue
        found.append((i, a, b))
    if len(want) != len(got):
        found.append(("length", len(want), len(got)))
    return found[:5]
