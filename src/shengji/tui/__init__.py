"""The terminal client: a keyboard-first Textual app and a ``--plain`` line mode."""

from ..extras import require

require("shengji.tui", "tui", "websockets")  # the Textual app checks textual and rich
