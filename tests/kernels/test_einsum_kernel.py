"""The Einsum kernel's batched-matmul path against numpy's einsum: batch, free, contracted and summed-out
letters, broadcast ``...`` and size-1 batch dimensions, in any order."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow.devices.cpu import CPUDevice

CASES = [
    ("ij,jk->ik", (3, 4), (4, 5)),
    ("ij,jk->ki", (3, 4), (4, 5)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("bij,bkj->bki", (2, 3, 4), (2, 5, 4)),
    ("ijk,j->i", (2, 3, 4), (3,)),
    ("i,j->ij", (3,), (4,)),
    ("i,i->", (5,), (5,)),
    ("abc,cd->dba", (2, 3, 4), (4, 5)),
    ("...ij,jk->...ik", (2, 3, 3, 4), (4, 2)),
    ("...ij,...jk->...ik", (2, 1, 3, 4), (5, 4, 2)),
    ("bij,jk->bik", (1, 3, 4), (4, 2)),
    ("ij,ij->ij", (3, 4), (3, 4)),
    ("ii,ij->j", (3, 3), (3, 2)),
    ("xyz,zyw->xw", (2, 3, 4), (4, 3, 5)),
]


@pytest.mark.parametrize("equation, sa, sb", CASES)
def test_matches_numpy_einsum(equation, sa, sb):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    kernel = CPUDevice().kernel("Einsum")
    got = kernel(SimpleNamespace(attrs={"equation": equation}, op_name="Einsum"), a, b)
    want = np.einsum(equation, a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
