"""The terminal client: a keyboard-first Textual app and a ``--plain`` line mode."""
