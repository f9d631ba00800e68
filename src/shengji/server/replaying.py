"""The card-by-card replayer's data (``GET /api/rooms/{id}/replay/views``), made off the
event loop: replaying a whole match and building a view per action takes a second or more
of CPU and some megabytes of JSON, so it runs in a worker process (a
:class:`~shengji.server.reviewing.Reviewer` of its own) and the answer is kept
gzip-compressed, per (room, seat): a finished match never changes.
"""

from __future__ import annotations

import gzip
from typing import Any

#: Answers kept (each some tens to hundreds of KB compressed).
CACHE_SIZE = 32


def replay_views(source: dict[str, Any], seat: int, _hand: int = 0, _budget: int = 0) -> bytes:
    """Every view ``seat`` had during a finished match, as gzip-compressed JSON
    ``{"views", "actions", "room"}`` (runs in the worker). ``source`` holds the match's
    ``record`` and the ``room`` block (seats' kinds and names) to send along."""
    from pydantic_core import to_json

    from ..game.record import replay
    from ..game.views import observe

    rec = source["record"]
    states = [replay({**rec, "actions": []})]
    replay(rec, lambda st, *_: states.append(st))
    body = {
        "views": [observe(st, seat) for st in states],
        "actions": rec["actions"],
        "room": {**source["room"], "options": rec["rules"], "preset": rec.get("preset")},
    }
    return gzip.compress(to_json(body), compresslevel=6)
