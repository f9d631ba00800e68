"""``shengji play``: a keyboard-first Textual table.

Keys: ←/→ move, space selects, Enter plays the selection, n starts the next hand, ? asks
the bot in your seat for a hint (local games), v shows the score sheet, q quits (in every
dialog too). Declaring (1–9, p) and burying the kitty happen in dialogs that leave the
status line in sight. Online, the lobby takes r (ready), s (start) and b (bots in the
empty seats, for the host). A selection is checked as you make it, so the rule that
forbids it shows before you send it; a throw is never called legal (it may still fail).

Every declaration, play, trick winner and failed throw goes to the log on the table, the
last trick stays in sight, and the score sheet says who won the match.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..cards import kitty_size
from ..errors import ShengjiError
from ..i18n import SUIT_SYMBOLS, card_label, count_cards, t
from ..phases import DECLARING_PHASES
from .session import Refusal, Session
from .text import (
    Tracker,
    clock_text,
    declared_text,
    hint_text,
    is_throw,
    kitty_marks,
    last_trick_text,
    lobby_lines,
    my_seat,
    my_turn,
    prompt,
    result_text,
    seat_title,
    status_lines,
    trump_flags,
    who,
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
        out.append(Binding("q", "app.leave", t("key.quit", lang)))
        out.append(Binding("ctrl+c", "app.leave", show=False, priority=True))
    return BindingsMap(out)


def card_text(
    card: str,
    *,
    lang: str = "en",
    cursor: bool = False,
    selected: bool = False,
    trump: bool = False,
    kitty: bool = False,
) -> Text:
    """One card as styled text: red suits red, trumps underlined, kitty cards green,
    the selection reversed, the cursor in brackets."""
    label = card_label(card, lang)
    style = "bold red" if card[0] in RED or card == "BJ" else "bold"
    if kitty:
        style = "bold green" if card[0] not in RED and card != "BJ" else "bold bright_green"
    if trump:
        style += " underline"
    if selected:
        style += " reverse"
    return Text(f"[{label}]" if cursor else f" {label} ", style=style)


_HINTING = threading.Lock()


async def _hint_line(session: Session, lang: str, show: Any) -> None:
    """Compute a hint off the interface thread (the search takes most of a second; run
    as a worker, the table stays live): ``show`` gets "thinking…" at once and the hint
    when it is ready."""
    if not _HINTING.acquire(blocking=False):
        return  # one hint at a time: the adviser is one bot
    try:
        show(t("hint.thinking", lang))
        rev = session.state.get("rev")
        text = await asyncio.to_thread(_hint_text, session, lang)
        show(text if session.state.get("rev") == rev else "")  # the table moved on meanwhile
    finally:
        _HINTING.release()


def _hint_text(session: Session, lang: str) -> str:
    return hint_text(session.hint(lang), session.online, lang)


class DeclareDialog(ModalScreen[int | None]):
    """Choose a declaration (1..n) or pass (p); ? asks for a hint."""

    def __init__(self, options: list[str], state: dict[str, Any], session: Session, lang: str):
        super().__init__()
        self.options = options
        self.state = state
        self.session = session
        self.lang = lang
        self._bindings = keymap(
            [("p,escape", "choose(0)", None, None), ("question_mark", "hint", None, "?")], lang
        )

    def compose(self) -> ComposeResult:
        lang = self.lang
        lines = [
            f"{i + 1}) " + t("action.declare", lang, cards=card_label_list(s, lang))
            for i, s in enumerate(self.options)
        ]
        lines.append(f"p) {t('action.pass', lang)}")
        decl = declared_text(self.state, lang) or ""
        yield Vertical(
            Static(t("dlg.declare", lang), id="dlg-title"),
            Static(decl, id="dlg-declared"),
            Static("\n".join(lines)),
            Static("", id="dlg-hint"),
            Static(t("dlg.declare_keys", lang), id="dlg-keys"),
            id="dialog",
        )

    def on_key(self, event: Any) -> None:
        if event.key.isdigit() and 1 <= int(event.key) <= len(self.options):
            self.dismiss(int(event.key))

    def action_choose(self, n: int) -> None:
        self.dismiss(n)

    def action_hint(self) -> None:
        show = self.query_one("#dlg-hint", Static).update
        self.run_worker(_hint_line(self.session, self.lang, show), group="hint")


def card_label_list(cards: str, lang: str) -> str:
    """Cards with suit symbols."""
    return " ".join(card_label(c, lang) for c in cards.split())


class BuryDialog(ModalScreen[str]):
    """Choose the kitty (扣底) at the foot of the screen, under the status line: ←/→
    move, space selects, Enter buries when enough are chosen, ? hints."""

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
        yield Vertical(
            Static(t("dlg.bury", self.lang, n=self.need), id="dlg-title"),
            Static(id="bury-hand"),
            Static(id="bury-count"),
            Static(t("dlg.bury_legend", self.lang), id="dlg-keys"),
            id="bury-dialog",
        )

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self, note: str = "") -> None:
        out = Text()
        for i, c in enumerate(self.cards):
            out.append_text(
                card_text(
                    c,
                    lang=self.lang,
                    cursor=i == self.cursor,
                    selected=i in self.selected,
                    trump=self.trumps[i],
                    kitty=self.kitty[i],
                )
            )
        self.query_one("#bury-hand", Static).update(out)
        count = t("sel.count", self.lang, n=len(self.selected), need=self.need)
        self.query_one("#bury-count", Static).update(count + (f"  {note}" if note else ""))

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.cards)
        self.redraw()

    def action_select_card(self) -> None:
        self.selected ^= {self.cursor}
        self.redraw()

    def action_bury(self) -> None:
        if len(self.selected) == self.need:
            self.dismiss(" ".join(self.cards[i] for i in sorted(self.selected)))

    def action_hint(self) -> None:
        self.run_worker(_hint_line(self.session, self.lang, self.redraw), group="hint")


class ScoreDialog(ModalScreen[bool]):
    """The score sheet (scrolls); after a hand n goes on to the next one."""

    def __init__(self, state: dict[str, Any], lang: str, can_continue: bool) -> None:
        super().__init__()
        view = state.get("view") or {}
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
            trump = "NT" if r["trump"] == "NT" else SUIT_SYMBOLS.get(r["trump"], r["trump"])
            lines.append(
                f"{r['number'] + 1:>2}. {who(self.state, r['banker'], lang)} "
                f"{r['level']}{trump} · {r['explain'][lang]}"
            )
        foot = t("sheet.end" if self.over or not self.can_continue else "sheet.next", lang)
        yield Vertical(
            Static(title, id="dlg-title"),
            VerticalScroll(Static("\n".join(lines), id="sheet-rows"), id="sheet"),
            Static(foot, id="dlg-keys"),
            id="dialog",
        )

    def on_mount(self) -> None:
        self.query_one("#sheet", VerticalScroll).scroll_end(animate=False)

    def action_scroll(self, step: int) -> None:
        sheet = self.query_one("#sheet", VerticalScroll)
        sheet.scroll_to(y=max(0, sheet.scroll_y + step), animate=False)

    def action_close(self, go_on: bool) -> None:
        self.dismiss(go_on and self.can_continue and not self.over)


class TableApp(App[None]):
    """The table: status, the seats and the trick, the log, your hand, messages."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: 2; background: $boost; padding: 0 1; }
    #table { height: 1fr; padding: 0 1; border: round $primary; }
    #hand { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    #message { height: auto; min-height: 1; max-height: 4; padding: 0 1; color: $warning; }
    #dialog { width: 90%; max-width: 100; height: auto; max-height: 90%;
              border: thick $accent; background: $surface; padding: 0 1; }
    #sheet { height: auto; max-height: 14; }
    #bury-dialog { width: 100%; height: auto; border: thick $accent; background: $surface;
                   padding: 0 1; }
    DeclareDialog, ScoreDialog { align: center middle; }
    BuryDialog { align: center bottom; background: $background 20%; }
    #dlg-title { text-style: bold; }
    #dlg-keys { color: $text-muted; }
    #dlg-hint { color: $warning; }
    """
    ENABLE_COMMAND_PALETTE = False
    KEYS: ClassVar[Keys] = [
        ("left", "move(-1)", "key.move", "←"),
        ("right", "move(1)", None, "→"),
        ("space", "select_card", "key.select", "keyname.space"),
        ("enter", "submit", "key.play", "⏎"),
        ("n", "next_hand", "key.next", None),
        ("question_mark", "hint", "key.hint", "?"),
        ("v", "sheet", "key.sheet", None),
        ("r", "ready", "key.ready", None),
        ("s", "start", "key.start", None),
        ("b", "bots", "key.bots", None),
    ]

    def __init__(self, session: Session, lang: str = "en") -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self._bindings = keymap(self.KEYS, lang)
        self.cursor = 0
        self.selected: set[int] = set()
        self.message = ""
        self.last_rev: Any = -1
        self.dialog_rev: Any = -1
        self.sheet_hand = -1
        self.tracker = Tracker(lang)
        self.log_lines: deque[str] = deque(maxlen=300)
        self.throw_note = ""
        self.error: ShengjiError | None = None
        self.skew = 0.0
        self.attempt = 0
        self.w_status = Static(id="status")
        self.w_table = Static(id="table")
        self.w_hand = Static(id="hand")
        self.w_message = Static(id="message")

    def compose(self) -> ComposeResult:
        yield self.w_status
        yield self.w_table
        yield self.w_hand
        yield self.w_message
        yield Footer()

    def on_mount(self) -> None:
        self.title = "升级 Shengji"
        self.set_interval(0.1, self.tick)
        self.render_state()

    def on_resize(self) -> None:
        self.call_after_refresh(self.render_state)

    # -- state -------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        return self.session.state

    @property
    def cards(self) -> list[str]:
        view = self.state.get("view") or {}
        return str(view.get("hand", "")).split()

    def action_leave(self) -> None:
        """Quit (online the seat stays yours: run the same command to come back)."""
        self.exit()

    def tick(self) -> None:
        try:
            changed = self.session.poll()
        except ShengjiError as e:
            self.error = e
            self.exit(return_code=2)
            return
        for note in _notices(self.session):
            self.log_lines.append(
                t("note.reconnected", self.lang)
                if note == "reconnected"
                else note.say(self.lang)
                if isinstance(note, Refusal)
                else str(note)
            )
            changed = True
        if self.session.status == "reconnecting" and self.session.attempt != self.attempt:
            self.attempt = self.session.attempt
            changed = True
        if changed or self.state.get("rev") != self.last_rev or self._clock_running():
            self.render_state()

    def _clock_running(self) -> bool:
        room = self.state.get("room") or {}
        return any(room.get("deadlines") or [])

    def render_state(self) -> None:
        state = self.state
        if not state:
            return
        view = state.get("view")
        lang = self.lang
        if state.get("rev") != self.last_rev:
            self.last_rev = state.get("rev")
            self.selected = set()
            self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
            room = state.get("room") or {}
            if room.get("now"):
                self.skew = time.time() - float(room["now"])
        self.log_lines.extend(self.tracker.update(state, self.session.chat))
        if self.tracker.throws:
            self.throw_note = self.tracker.throws[-1]
        s1, s2 = status_lines(state, lang)
        self.w_status.update(f"{s1}\n{s2}")
        self.w_table.update(self.table_text(view))
        hand = self.w_hand
        me = my_seat(state)
        if view and me is not None:
            hand.border_title = f"{t('table.hand', lang)} · {count_cards(len(self.cards), lang)}"
            hand.update(self.hand_text())
        else:
            hand.border_title = ""
            hand.update(t("table.no_hand", lang) if view else "")
        self.w_message.update(self.message_text())
        self.refresh_bindings()
        if not view:
            return
        self._dialogs(state, view)

    def _dialogs(self, state: dict[str, Any], view: dict[str, Any]) -> None:
        phase = view["phase"]
        mine = my_turn(state)
        screen = self.screen
        if isinstance(screen, DeclareDialog | BuryDialog) and not (
            mine
            and (
                phase in DECLARING_PHASES if isinstance(screen, DeclareDialog) else phase == "bury"
            )
        ):
            self.pop_screen()  # the turn passed (e.g. a timer played for us)
            screen = self.screen
        if isinstance(screen, ModalScreen):
            return
        if mine and phase in DECLARING_PHASES and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            shows = list(state.get("shows") or [])
            self.push_screen(DeclareDialog(shows, state, self.session, self.lang), self.declared)
        elif mine and phase == "bury" and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            need = kitty_size(int(state["room"]["options"]["decks"]))
            self.push_screen(
                BuryDialog(self.cards, need, state, self.session, self.lang), self.buried
            )
        elif phase in ("hand_over", "match_over") and self.sheet_hand != view["hand_number"]:
            self.sheet_hand = view["hand_number"]
            self.push_screen(ScoreDialog(state, self.lang, mine), self.sheet_closed)

    def message_text(self) -> Text:
        lang = self.lang
        first = self.message or prompt(self.state, lang, keys=True)
        second = ""
        if self.session.status == "reconnecting":
            second = t("status.reconnecting", lang, n=self.session.attempt)
        elif self.throw_note:
            second = self.throw_note
        else:
            second = clock_text(self.state, lang, self.skew, time.time()) or ""
        out = Text(first)
        if second:
            out.append("\n" + second, style="bold")
        return out

    def table_text(self, view: dict[str, Any] | None) -> Text:
        state = self.state
        lang = self.lang
        widget = self.w_table
        height = max(4, widget.content_size.height or 12)
        width = max(20, widget.content_size.width or 76)
        out = Text()
        used = 0
        lines: list[str]
        if not view:
            lines = lobby_lines(state, lang, self.session.link)
        else:
            lines = []
            me = my_seat(state) or 0
            played = {p["seat"]: p for p in view.get("trick") or []}
            titles = {}
            for rel in (2, 3, 1, 0):
                seat = (me + rel) % 4
                left = view["hand_sizes"][seat]
                titles[seat] = f"{seat_title(state, seat, lang)} ({left})"
            pad = max(cell_len(x) for x in titles.values()) + 2
            for rel in (2, 3, 1, 0):
                seat = (me + rel) % 4
                mark = "▶ " if view.get("to_act") == seat else "  "
                title = titles[seat]
                row = Text(mark + title + " " * (pad - cell_len(title)))
                p = played.get(seat)
                if p:
                    row.append_text(_cards_styled(p["cards"], lang))
                    if p.get("attempted"):
                        row.append(
                            t("table.failed", lang, cards=card_label_list(p["attempted"], lang)),
                            style="yellow",
                        )
                out.append_text(row)
                out.append("\n")
                used += 1
            for extra in (declared_text(state, lang), last_trick_text(state, lang)):
                if extra:
                    lines.append(extra)
            if view.get("kitty"):
                lines.append(t("table.kitty", lang, cards=card_label_list(view["kitty"], lang)))
        for line in lines:
            out.append(line + "\n")
            used += _rows(line, width)
        log = list(self.log_lines)
        room_left = height - used - 1
        if log and room_left > 0:
            shown: list[str] = []
            rows = 0
            for line in reversed(log):
                r = _rows(line, width)
                if rows + r > room_left:
                    break
                shown.append(line)
                rows += r
            out.append("─" * min(width, 60) + "\n", style="dim")
            for line in reversed(shown):
                out.append(line + "\n", style="dim" if not line.startswith("—") else "bold")
        out.rstrip()
        return out

    def hand_text(self) -> Text:
        cards = self.cards
        trumps = trump_flags(self.state, cards)
        out = Text()
        for i, c in enumerate(cards):
            out.append_text(
                card_text(
                    c,
                    lang=self.lang,
                    cursor=i == self.cursor,
                    selected=i in self.selected,
                    trump=trumps[i],
                )
            )
        return out

    # -- bindings ------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.state
        view = state.get("view") or {}
        lobby = bool(state) and not view
        seated = my_seat(state) is not None
        host = bool((state.get("you") or {}).get("host"))
        if action in ("move", "select_card", "submit"):
            return bool(view) and seated and view.get("phase") == "play"
        if action == "next_hand":
            return view.get("phase") == "hand_over" and my_turn(state)
        if action == "hint":
            return bool(view) and seated
        if action == "sheet":
            return bool(view.get("score_sheet"))
        if action == "ready":
            return lobby and seated
        if action in ("start", "bots"):
            return lobby and host
        return True

    # -- actions ---------------------------------------------------------------------------
    def chosen(self) -> str:
        return " ".join(self.cards[i] for i in sorted(self.selected))

    def _say(self, refusal: Refusal | None) -> str:
        return "" if refusal is None else "✗ " + refusal.say(self.lang)

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.render_state()

    def action_select_card(self) -> None:
        if not self.cards:
            return
        self.selected ^= {self.cursor}
        self.message = ""
        view = self.state.get("view") or {}
        if my_turn(self.state) and view.get("phase") == "play" and self.selected:
            cards = self.chosen()
            refusal = self.session.check({"type": "play", "cards": cards})
            if refusal:
                self.message = self._say(refusal)
            elif is_throw(self.state, cards):
                self.message = "⚠ " + t("sel.throw", self.lang)
            else:
                self.message = t("sel.legal", self.lang)
        self.render_state()

    def action_submit(self) -> None:
        view = self.state.get("view") or {}
        if not my_turn(self.state) or view.get("phase") != "play":
            return
        self.throw_note = ""
        self.message = self._say(self.session.act({"type": "play", "cards": self.chosen()}))
        self.render_state()

    def action_next_hand(self) -> None:
        view = self.state.get("view") or {}
        if view.get("phase") == "hand_over" and my_turn(self.state):
            self.throw_note = ""
            self.message = self._say(self.session.act({"type": "continue"}))
            self.render_state()

    def action_hint(self) -> None:
        def show(text: str) -> None:
            self.message = text
            self.render_state()

        self.run_worker(_hint_line(self.session, self.lang, show), group="hint")

    def action_sheet(self) -> None:
        if not isinstance(self.screen, ModalScreen) and (self.state.get("view") or {}).get(
            "score_sheet"
        ):
            self.push_screen(
                ScoreDialog(
                    self.state,
                    self.lang,
                    (self.state.get("view") or {}).get("phase") == "hand_over"
                    and my_turn(self.state),
                ),
                self.sheet_closed,
            )

    def action_ready(self) -> None:
        room = self.state.get("room") or {}
        me = my_seat(self.state)
        seats = room.get("seats") or []
        ready = bool(me is not None and me < len(seats) and seats[me].get("ready"))
        self.message = self._say(self.session.command({"type": "ready", "ready": not ready}))
        self.render_state()

    def action_start(self) -> None:
        self.message = self._say(self.session.command({"type": "start"}))
        self.render_state()

    def action_bots(self) -> None:
        from .plain import fill_bots, next_level

        level = next_level(self.session)
        refusal = fill_bots(self.session, [level])
        self.message = self._say(refusal) or t(
            "lobby.bots_now", self.lang, level=t(f"level.{level}", self.lang)
        )
        self.render_state()

    def declared(self, choice: int | None) -> None:
        shows = self.state.get("shows") or []
        action = (
            {"type": "declare", "cards": shows[choice - 1]}
            if choice and choice <= len(shows)
            else {"type": "pass"}
        )
        self.message = self._say(self.session.act(action))
        self.render_state()

    def buried(self, cards: str | None) -> None:
        self.message = self._say(self.session.act({"type": "bury", "cards": cards or ""}))
        self.render_state()

    def sheet_closed(self, go_on: bool | None) -> None:
        if go_on:
            self.action_next_hand()


def _cards_styled(cards: str, lang: str) -> Text:
    out = Text()
    for i, c in enumerate(cards.split()):
        if i:
            out.append(" ")
        style = "bold red" if c[0] in RED or c == "BJ" else "bold"
        out.append(card_label(c, lang), style=style)
    return out


def _rows(line: str, width: int) -> int:
    """Terminal rows a line takes at ``width`` columns."""
    return max(1, -(-cell_len(line) // max(1, width)))


def _notices(session: Session) -> list[str | Refusal]:
    notices: list[str | Refusal] = getattr(session, "notices", [])
    taken = list(notices)
    notices.clear()
    return taken
