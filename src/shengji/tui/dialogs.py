"""The Textual table's dialogs: declaring after the deal, burying the kitty, calling
friends, help, quitting and the score sheet, with the clock they show and the hint line
they may ask for (computed off the interface thread)."""

from __future__ import annotations

try:
    from textual import events
    from textual.app import ComposeResult
    from textual.containers import Vertical, VerticalScroll
    from textual.screen import ModalScreen
    from textual.widgets import Input, Static
except ModuleNotFoundError as e:  # pragma: no cover - depends on what is installed
    from ..extras import missing_extra

    raise missing_extra("shengji.tui.dialogs", "tui", e) from e


import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from ..bots.autoplay import choose_action
from ..errors import ShengjiError
from ..rules.cards import ALL_CARDS
from ..words.i18n import (
    SUIT_SYMBOLS,
    calls_text,
    t,
    trump_label,
)
from .draw import (
    Keys,
    card_at,
    card_label_list,
    card_text,
    keymap,
    layout_cards,
)
from .session import Session
from .text import (
    clock_text,
    declared_text,
    explain_text,
    hint_text,
    kitty_marks,
    options_of,
    positions,
    result_text,
    trump_flags,
    who,
)

_HINTING = threading.Lock()


#: Shows a hint: its words, and the action it advises (None while thinking).
ShowHint = Callable[[str, dict[str, Any] | None], None]


async def _hint_line(session: Session, lang: str, show: ShowHint) -> None:
    """Compute a hint off the interface thread (the search takes most of a second; run
    as a worker, the table stays live): ``show`` gets "thinking…" at once and the hint
    (with its action, to select its cards) when it is ready."""
    if not _HINTING.acquire(blocking=False):
        show(t("hint.busy", lang), None)  # one hint at a time: the adviser is one bot
        return
    try:
        show(t("hint.thinking", lang), None)
        rev = session.state.get("rev")
        hint = await asyncio.to_thread(session.hint, lang)
        if session.state.get("rev") != rev:  # the table moved on meanwhile
            show("", None)
            return
        action = hint[0] if isinstance(hint, tuple) else None
        show(hint_text(hint, session.online, lang), action)
    finally:
        _HINTING.release()


class DialogClock(Static):
    """The turn clock inside a dialog (which covers the table's own clock line)."""

    def __init__(self, lang: str) -> None:
        super().__init__("", classes="dlg-clock")
        self.lang = lang

    def on_mount(self) -> None:
        self.tick()
        self.set_interval(0.5, self.tick)

    def tick(self) -> None:
        app = self.app
        state = getattr(app, "state", None) or {}
        skew = float(getattr(app, "skew", 0.0))
        text = clock_text(state, self.lang, skew, time.time()) or ""
        self.display = bool(text)  # no timer: no empty line
        self.update(text)


class DeclareDialog(ModalScreen[str | None]):
    """Choose a declaration (1..n) or pass (p); ? asks for a hint. Returns the show's
    cards, or None for a pass. During the deal (``free``: nobody is asked, the deal goes
    on behind it) it offers the shows held now and Esc closes it without showing."""

    def __init__(
        self,
        options: list[str],
        state: dict[str, Any],
        session: Session,
        lang: str,
        free: bool = False,
    ) -> None:
        super().__init__()
        self.options = options
        self.state = state
        self.session = session
        self.lang = lang
        self.free = free
        keys: Keys = [("escape", "pass", None, None)]
        if not free:
            keys += [("p", "pass", None, None), ("question_mark", "hint", None, "?")]
        self._bindings = keymap(keys, lang)

    def compose(self) -> ComposeResult:
        lang = self.lang
        verb = "action.show" if self.free else "action.declare"
        lines = [
            f"{i + 1}) " + t(verb, lang, cards=card_label_list(s, lang))
            for i, s in enumerate(self.options)
        ]
        if not self.free:
            lines.append(f"p) {t('action.pass', lang)}")
        decl = declared_text(self.state, lang) or ""
        yield Vertical(
            Static(t("dlg.show" if self.free else "dlg.declare", lang), id="dlg-title"),
            Static(decl, id="dlg-declared"),
            Static("\n".join(lines)),
            Static("", id="dlg-hint"),
            Static(t("dlg.show_keys" if self.free else "dlg.declare_keys", lang), id="dlg-keys"),
            DialogClock(lang),
            id="dialog",
        )

    def on_key(self, event: events.Key) -> None:
        if event.key.isascii() and event.key.isdigit() and 1 <= int(event.key) <= len(self.options):
            self.dismiss(self.options[int(event.key) - 1])

    def action_pass(self) -> None:
        self.dismiss(None)

    def action_hint(self) -> None:
        line = self.query_one("#dlg-hint", Static)
        show: ShowHint = lambda text, _: line.update(text)  # noqa: E731
        self.run_worker(_hint_line(self.session, self.lang, show), group="hint")


class BuryDialog(ModalScreen[str]):
    """Choose the kitty (扣底) at the foot of the screen, under the status line: ←/→
    move, space (or a click) selects, Enter buries when enough are chosen, ? hints (and
    selects the hinted cards)."""

    def __init__(
        self, cards: list[str], need: int, state: dict[str, Any], session: Session, lang: str
    ) -> None:
        super().__init__()
        self.cards = cards
        self.need = need
        self.lang = lang
        self.session = session
        self.trumps = trump_flags(state, cards)
        self.kitty = kitty_marks(state, cards)
        self.cursor = 0
        self.selected: set[int] = set()
        self.spots: list[tuple[int, int, int]] = []
        self._bindings = keymap(
            [
                ("left", "move(-1)", None, "←"),
                ("right", "move(1)", None, "→"),
                ("space", "select_card", None, None),
                ("enter", "bury", None, None),
                ("question_mark", "hint", None, "?"),
            ],
            lang,
        )

    def compose(self) -> ComposeResult:
        legend = "dlg.bury_legend" if not self.app.no_color else "dlg.bury_legend_nc"
        yield Vertical(
            Static(t("dlg.bury", self.lang, n=self.need), id="dlg-title"),
            Static(id="bury-hand"),
            Static(id="bury-count"),
            Static(t(legend, self.lang), id="dlg-keys"),
            DialogClock(self.lang),
            id="bury-dialog",
        )

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    def redraw(self, note: str = "") -> None:
        hand = self.query_one("#bury-hand", Static)
        pieces = [
            card_text(
                c,
                lang=self.lang,
                cursor=i == self.cursor,
                selected=i in self.selected,
                trump=self.trumps[i],
                kitty=self.kitty[i],
                color=not self.app.no_color,
            )
            for i, c in enumerate(self.cards)
        ]
        out, self.spots = layout_cards(pieces, hand.content_size.width or 76)
        hand.update(out)
        count = t("sel.count", self.lang, n=len(self.selected), need=self.need)
        self.query_one("#bury-count", Static).update(count + (f"  {note}" if note else ""))

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.cards)
        self.redraw()

    def action_select_card(self) -> None:
        self.selected ^= {self.cursor}
        self.redraw()

    def on_click(self, event: events.Click) -> None:
        hand = self.query_one("#bury-hand", Static)
        offset = event.get_content_offset(hand)
        i = None if offset is None else card_at(self.spots, offset.x, offset.y)
        if i is not None:
            self.cursor = i
            self.action_select_card()

    def action_bury(self) -> None:
        if len(self.selected) == self.need:
            self.dismiss(" ".join(self.cards[i] for i in sorted(self.selected)))

    def action_hint(self) -> None:
        def show(text: str, action: dict[str, Any] | None) -> None:
            if action and action.get("type") == "bury":
                self.selected = set(positions(self.cards, str(action["cards"]).split()))
            self.redraw(text)

        self.run_worker(_hint_line(self.session, self.lang, show), group="hint")


class CallDialog(ModalScreen[str | None]):
    """找朋友: the banker types the friend calls (``SA:2 HK:1``), the heuristic's
    suggestion filled in; under it the calls in words as typed. Enter calls, Esc closes
    (Enter on the table opens it again)."""

    def __init__(self, state: dict[str, Any], session: Session, lang: str) -> None:
        super().__init__()
        self.state = state
        self.session = session
        self.lang = lang
        opts = options_of(state)
        self.need = opts.calls if opts else 1
        try:
            self.suggested = str(choose_action(state)["calls"])
        except (ShengjiError, KeyError, TypeError, ValueError):
            self.suggested = ""
        self._bindings = keymap([("escape", "close", None, None)], lang, quit_key=False)

    def compose(self) -> ComposeResult:
        lang = self.lang
        callable_ = set(str(self.state.get("callable") or "").split())
        barred = [c.text for c in ALL_CARDS if c.text not in callable_]  # level cards, jokers
        hand = card_label_list(str((self.state.get("view") or {}).get("hand") or ""), lang)
        yield Vertical(
            Static(t("dlg.call", lang), id="dlg-title"),
            Static(t("dlg.call_intro", lang, n=self.need)),
            Input(value=self.suggested, id="call-input"),
            Static(self.reads(self.suggested), id="call-reads"),
            Static("", id="dlg-note"),
            Static(t("dlg.call_hand", lang, cards=hand)),
            Static(t("dlg.call_keys", lang, cards=card_label_list(" ".join(barred), lang))),
            DialogClock(lang),
            id="call-dialog",
        )

    def reads(self, text: str) -> str:
        return t("dlg.call_reads", self.lang, calls=calls_text(text, self.lang) or "—")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#call-reads", Static).update(self.reads(event.value))
        self.query_one("#dlg-note", Static).update("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Calls the server would refuse stay in the dialog, as typed, with the reason."""
        calls = event.value.strip().upper()
        if not calls:
            return
        refusal = self.session.check({"type": "call", "calls": calls})
        if refusal is None:
            self.dismiss(calls)
        else:
            self.query_one("#dlg-note", Static).update("✗ " + refusal.say(self.lang))

    def action_close(self) -> None:
        self.dismiss(None)


class HelpDialog(ModalScreen[None]):
    """Every key (h, F1 or Esc closes it)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self._bindings = keymap([("escape,enter", "close", None, None)], lang)

    def compose(self) -> ComposeResult:
        yield Vertical(
            Static(t("help.title", self.lang), id="dlg-title"),
            Static(t("help.keys", self.lang), id="help-keys"),
            Static(t("help.close", self.lang), id="dlg-keys"),
            id="dialog",
        )

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmQuit(ModalScreen[bool]):
    """Quit a local game? It cannot be resumed: says how to deal it again (y / n)."""

    def __init__(self, replay: str, lang: str) -> None:
        super().__init__()
        self.replay = replay
        self.lang = lang
        self._bindings = keymap(
            [("y,q", "answer(True)", None, None), ("n,escape", "answer(False)", None, None)],
            lang,
            quit_key=False,
        )

    def compose(self) -> ComposeResult:
        lang = self.lang
        yield Vertical(
            Static(t("quit.title", lang), id="dlg-title"),
            Static(t("quit.body", lang, args=self.replay)),
            Static(t("quit.keys", lang), id="dlg-keys"),
            id="dialog",
        )

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ScoreDialog(ModalScreen[bool]):
    """The score sheet (scrolls); after a hand n goes on to the next one, and the
    countdown to it (the table's own clock line is behind the dialog) goes on in it."""

    def __init__(self, state: dict[str, Any], lang: str, can_continue: bool) -> None:
        super().__init__()
        view = state.get("view") or {}
        #: The hand it was opened in, and whether after it (it closes when the next starts).
        self.hand = view.get("hand_number")
        self.after = view.get("phase") in ("hand_over", "match_over")
        self.rows: list[dict[str, Any]] = list(view.get("score_sheet") or [])
        self.state = state
        self.lang = lang
        self.over = view.get("phase") == "match_over"
        self.can_continue = can_continue
        self._bindings = keymap(
            [
                ("n,enter", "close(True)", None, None),
                ("escape", "close(False)", None, None),
                ("up", "scroll(-1)", None, None),
                ("down", "scroll(1)", None, None),
                ("pageup", "scroll(-8)", None, None),
                ("pagedown", "scroll(8)", None, None),
            ],
            lang,
        )

    def compose(self) -> ComposeResult:
        lang = self.lang
        title = (
            t("sheet.over", lang, result=result_text(self.state, lang))
            if self.over
            else t("sheet.title", lang)
        )
        lines = []
        for r in self.rows:
            trump = SUIT_SYMBOLS.get(r["trump"]) or " " + trump_label(r["trump"], lang)
            lines.append(
                f"{r['number'] + 1:>2}. {who(self.state, r['banker'], lang)} "
                f"{r['level']}{trump} · {explain_text(self.state, r, lang)}"
            )
        foot = t("sheet.end" if self.over or not self.can_continue else "sheet.next", lang)
        yield Vertical(
            Static(title, id="dlg-title"),
            VerticalScroll(Static("\n".join(lines), id="sheet-rows"), id="sheet"),
            Static(foot, id="dlg-keys"),
            DialogClock(lang),  # the countdown to the next hand, each second
            id="dialog",
        )

    def on_mount(self) -> None:
        self.query_one("#sheet", VerticalScroll).scroll_end(animate=False)

    def action_scroll(self, step: int) -> None:
        sheet = self.query_one("#sheet", VerticalScroll)
        sheet.scroll_to(y=max(0, sheet.scroll_y + step), animate=False)

    def action_close(self, go_on: bool) -> None:
        self.dismiss(go_on and self.can_continue and not self.over)
