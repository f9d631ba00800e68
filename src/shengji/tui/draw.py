"""Drawing helpers of the Textual table: cards as styled text (suit colours, trumps and
the kitty marked), laid out over lines with the spot each card takes (for clicks), the
jump keys' matching, and the key bindings as the footer shows them."""

from __future__ import annotations

try:
    from rich.cells import cell_len
    from rich.text import Text
    from textual.binding import Binding, BindingsMap, BindingType
except ModuleNotFoundError as e:  # pragma: no cover - depends on what is installed
    from ..extras import missing_extra

    raise missing_extra("shengji.tui.draw", "tui", e) from e


from ..words.i18n import (
    card_label,
    t,
)

RED = {"H", "D"}


#: (keys, action, catalogue key of the description, key display)
Keys = list[tuple[str, str, str | None, str | None]]


def keymap(keys: Keys, lang: str, quit_key: bool = True) -> BindingsMap:
    """Bindings with their descriptions in ``lang`` (the footer shows them)."""
    out: list[BindingType] = [
        Binding(
            k,
            action,
            t(desc, lang) if desc else "",
            show=desc is not None,
            key_display=t(kd, lang) if kd and kd.startswith("keyname.") else kd,
        )
        for k, action, desc, kd in keys
    ]
    if quit_key:
        out.append(Binding("h,f1", "app.help", t("key.help", lang), key_display="h"))
        out.append(Binding("q", "app.leave", t("key.quit", lang)))
        out.append(Binding("ctrl+c", "app.interrupt", show=False, priority=True))
    return BindingsMap(out)


def card_text(
    card: str,
    *,
    lang: str = "en",
    cursor: bool = False,
    selected: bool = False,
    trump: bool = False,
    kitty: bool = False,
    color: bool = True,
) -> Text:
    """One card as styled text: red suits red, trumps underlined, kitty cards green,
    the selection reversed, the cursor in brackets. Without ``color`` (``NO_COLOR``) no
    colour at all: red suits bold, black ones plain, kitty cards marked ``+``."""
    label = card_label(card, lang)
    style = _card_style(card, color)
    if kitty and color:
        style = "bold green" if card[0] not in RED and card != "BJ" else "bold bright_green"
    if trump:
        style += " underline"
    if selected:
        style += " reverse"
    if cursor:
        return Text(f"[{label}]", style=style)
    return Text(f"{'+' if kitty and not color else ' '}{label} ", style=style)


def _card_style(card: str, color: bool) -> str:
    """Red suits (and the big joker) red; with no colour, bold instead (never a dim grey
    on the background, as a colour filtered to grey would be)."""
    red = card[0] in RED or card == "BJ"
    if not color:
        return "bold" if red else "not bold"
    return "bold red" if red else "bold"


def layout_cards(pieces: list[Text], width: int) -> tuple[Text, list[tuple[int, int, int]]]:
    """Cards in rows of at most ``width`` cells, never split, and where each one is:
    ``(row, first column, end column)`` (what a click finds)."""
    out = Text()
    spots: list[tuple[int, int, int]] = []
    row = x = 0
    for piece in pieces:
        w = piece.cell_len
        if x and x + w > width:
            out.append("\n")
            row, x = row + 1, 0
        out.append_text(piece)
        spots.append((row, x, x + w))
        x += w
    return out, spots


def card_at(spots: list[tuple[int, int, int]], x: int, y: int) -> int | None:
    """The card a click at content offset ``(x, y)`` lands on."""
    return next((i for i, (r, a, b) in enumerate(spots) if r == y and a <= x < b), None)


def card_label_list(cards: str, lang: str) -> str:
    """Cards with suit symbols."""
    return " ".join(card_label(c, lang) for c in cards.split())


def jump_matches(card: str, char: str) -> bool:
    """Whether typing ``char`` jumps to ``card``: a suit letter (S H C D), W for a joker,
    or a rank (2-9, 0 or T for 10, J Q K A).

    >>> [jump_matches(c, k) for c, k in [("S10", "0"), ("HQ", "Q"), ("BJ", "w"), ("D5", "s")]]
    [True, True, True, False]
    """
    c = char.upper()
    joker = card in ("BJ", "LJ")
    if c == "W":
        return joker
    if c in "SHCD":
        return not joker and card[0] == c
    rank = {"0": "10", "T": "10"}.get(c, c)
    return not joker and card[1:] == rank


def _cards_styled(cards: str, lang: str, color: bool = True) -> Text:
    out = Text()
    for i, c in enumerate(cards.split()):
        if i:
            out.append(" ")
        out.append(card_label(c, lang), style=_card_style(c, color))
    return out


def _rows(line: str, width: int) -> int:
    """Terminal rows a line takes at ``width`` columns."""
    return max(1, -(-cell_len(line) // max(1, width)))
