"""Shared pytest configuration: Hypothesis profiles sized for a 2-core machine.

Profiles (select with ``HYPOTHESIS_PROFILE=name``):

- ``default``: the everyday run, no deadline (timings on shared machines vary);
- ``ci``: the same example counts, derandomized so a CI run is reproducible;
- ``thorough``: ten times the examples, for a long local hunt.

Each property test sets its own ``max_examples`` for the ``default`` profile; the
``thorough`` profile multiplies them through :func:`helpers.examples`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

_COMMON = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

settings.register_profile("default", _COMMON, max_examples=100)
settings.register_profile("ci", _COMMON, max_examples=100, derandomize=True)
settings.register_profile("thorough", _COMMON, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
