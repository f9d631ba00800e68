"""Kernels under test: the pure-Python core always, the mypyc-compiled one when built."""

from __future__ import annotations

import pytest

from shengji.engine import Kernel
from shengji.kernel import compiled


def kernels() -> list[Kernel]:
    """Every kernel path available here (pure first)."""
    out = [Kernel(pure=True)]
    if compiled():
        out.append(Kernel(pure=False))
    return out


@pytest.fixture(params=["pure", "compiled"])
def kernel(request: pytest.FixtureRequest) -> Kernel:
    """Each kernel path in turn (the compiled one is skipped where it was not built)."""
    if request.param == "compiled" and not compiled():
        pytest.skip("the compiled kernel is not built here (pip install -e . builds it)")
    return Kernel(pure=request.param == "pure")
