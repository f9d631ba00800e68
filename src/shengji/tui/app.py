"""``shengji play``: a keyboard-first Textual table.

Keys: ←/→ move (or type a rank or suit to jump; a click selects), space selects, Esc
clears, Enter plays the selection, n starts the next hand, ? asks for a hint (and selects
it), v shows the score sheet, l switches language, h/F1 lists every key, q quits (asking
first in a local game; in every dialog too), Ctrl-C quits at once (exit status 130).
The deal runs by itself and never waits: the prompt line lists the shows you hold as the
cards come, d shows (one at once, several in a dialog the deal goes on behind), Enter
shows the cards selected. Declaring after the deal (1–9, p) and burying the kitty happen
in dialogs that leave the status line in sight; a decision that comes due is offered at
once, over any overlay (help, the score sheet), and a dialog whose moment passed closes
(Enter reopens one that still waits). Online, the lobby takes r (ready), s (start) and b
(bots in the empty seats, for the host). A selection is checked as you make it, so the
rule that forbids it shows before you send it; a throw is never called legal (it may
still fail).

The trick in progress marks who led it (▶), who is winning it (★) and its points; every
declaration, play, trick winner and failed throw goes to the log on the table, the last
trick stays in sight, and the score sheet says who won the match.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from typing import Any, ClassVar

try:
    from rich.cells import cell_len
    from rich.text import Text
    from textual import events
    from textual.app import App, ComposeResult
    from textual.screen import ModalScreen, Screen
    from textual.widgets import Footer, Static
except ModuleNotFoundError as e:  # pragma: no cover - depends on what is installed
    from ..extras import missing_extra

    raise missing_extra("shengji.tui.app", "tui", e) from e


from ..errors import ShengjiError
from ..rules.cards import kitty_size
from ..rules.phases import DECLARING_PHASES
from ..words.i18n import (
    count_cards,
    count_points,
    t,
)
from .dialogs import (
    BuryDialog,
    CallDialog,
    ConfirmQuit,
    DeclareDialog,
    HelpDialog,
    ScoreDialog,
    _hint_line,
)
from .draw import (
    Keys,
    _cards_styled,
    _rows,
    card_at,
    card_label_list,
    card_text,
    jump_matches,
    keymap,
    layout_cards,
)
from .session import Refusal, Session
from .text import (
    clock_text,
    declared_text,
    is_throw,
    last_trick_text,
    lobby_lines,
    my_seat,
    my_turn,
    options_of,
    positions,
    prompt,
    seat_flags,
    seat_title,
    side_word,
    status_rows,
    trick_marks,
    trick_points,
    trump_flags,
)
from .tracker import Tracker

#: Refusals about the connection: their message goes once the connection is back.
LINK_CODES = {"RECONNECTING", "TIMEOUT", "UNREACHABLE", "CONNECTION_LOST"}


class TableApp(App[None]):
    """The table: status, the seats and the trick, the log, your hand, messages."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 4; background: $boost; padding: 0 1; }
    #table { height: 1fr; padding: 0 1; border: round $primary; }
    #hand { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    #message { height: auto; min-height: 1; max-height: 4; padding: 0 1; color: $warning; }
    #dialog { width: 90%; max-width: 100; height: auto; max-height: 90%;
              border: thick $accent; background: $surface; padding: 0 1; }
    #sheet { height: auto; max-height: 14; }
    #bury-dialog, #call-dialog { width: 100%; height: auto; border: thick $accent;
                   background: $surface; padding: 0 1; }
    #call-input { height: 3; }
    DeclareDialog, ScoreDialog, HelpDialog, ConfirmQuit { align: center middle;
        background: $background 30%; }
    BuryDialog, CallDialog { align: center bottom; background: $background 20%; }
    #dlg-title { text-style: bold; }
    #dlg-keys { color: $text-muted; }
    #dlg-hint, #dlg-note { color: $warning; height: auto; }
    .dlg-clock { text-style: bold; height: auto; }
    .hidden { display: none; }
    """
    ENABLE_COMMAND_PALETTE = False
    KEYS: ClassVar[Keys] = [
        ("left", "move(-1)", "key.move", "←"),
        ("right", "move(1)", None, "→"),
        ("space", "select_card", "key.select", "keyname.space"),
        ("enter", "submit", "key.play", "⏎"),
        ("escape", "clear", None, None),
        ("n", "next_hand", "key.next", None),
        ("d", "show", "key.show", None),
        ("question_mark", "hint", "key.hint", "?"),
        ("v", "sheet", "key.sheet", None),
        ("r", "ready", "key.ready", None),
        ("s", "start", "key.start", None),
        ("b", "bots", "key.bots", None),
        ("l", "lang", "key.lang", None),
    ]

    def __init__(self, session: Session, lang: str = "en") -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        #: Enter's label (None: not in the footer) and the language of the footer.
        self.bound: tuple[str | None, str] = ("key.play", lang)
        self._bindings = keymap(self.KEYS, lang)
        self.cursor = 0
        self.selected: set[int] = set()
        self.message = ""
        self.message_code: str | None = None
        self.last_rev: Any = -1
        self.dialog_rev: Any = -1
        self.hint_rev: Any = None  # the table's revision the hint shown is about
        self.phase: str | None = None  # the phase at the last look: a message ends with it
        self.sheet_hand = -1
        #: The hand at the last look: its number, the cards dealt so far, the hand's cards.
        self.dealt_hand: tuple[Any, int, list[str]] = (None, 0, [])
        # the log is kept in both languages, so the language key re-reads it whole
        self.trackers = {code: Tracker(code) for code in ("en", "zh")}
        self.logs: dict[str, deque[str]] = {code: deque(maxlen=300) for code in ("en", "zh")}
        self.throw_note = ""
        self.error: ShengjiError | None = None
        self.skew = 0.0
        self.link: tuple[str, int] = (session.status, session.attempt)
        self.spots: list[tuple[int, int, int]] = []
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
        """Quit. Online the seat stays yours (run the same command to come back); a local
        game in progress asks first, since it cannot be resumed."""
        view = self.state.get("view") or {}
        replay = getattr(self.session, "replay_args", None)
        if (
            self.session.online
            or replay is None
            or view.get("phase") in (None, "match_over")
            or isinstance(self.screen, ConfirmQuit)
        ):
            self.exit()
            return
        self.push_screen(ConfirmQuit(replay(), self.lang), self._quit_answer)

    def _quit_answer(self, yes: bool | None) -> None:
        if yes:
            self.exit()

    def action_interrupt(self) -> None:
        """Ctrl-C: quit at once, exit status 130."""
        self.exit(return_code=130)

    def action_help(self) -> None:
        """Show every key (h / F1); again, or Esc, closes it."""
        screen: Screen[Any] = self.screen  # typed Screen[object]: no narrowing from that
        if isinstance(screen, HelpDialog):
            screen.dismiss(None)
        else:
            self.push_screen(HelpDialog(self.lang))

    def action_lang(self) -> None:
        """Switch between English and Chinese."""
        self.lang = "zh" if self.lang == "en" else "en"
        self._rebind()
        self.render_state()

    @property
    def log_lines(self) -> deque[str]:
        """The log in the table's language."""
        return self.logs[self.lang]

    def _rebind(self) -> None:
        """The footer's keys in this language, Enter labelled by what it does now (open
        the declaration or the kitty that waits, or play; while the cards are dealt it is
        left out: d shows, and a selection that may be shown says Enter)."""
        phase = (self.state.get("view") or {}).get("phase") if self.state else None
        pending = bool(self.state) and self._pending_dialog()
        opens = {"bury": "key.bury", "call": "key.call"}.get(str(phase), "key.declare")
        enter = opens if pending else None if self._dealing() else "key.play"
        if (enter, self.lang) != self.bound:
            self.bound = (enter, self.lang)
            keys = [(k, a, enter if a == "submit" else d, kd) for k, a, d, kd in self.KEYS]
            self._bindings = keymap(keys, self.lang)
        self.refresh_bindings()

    def tick(self) -> None:
        try:
            changed = self.session.poll()
        except ShengjiError as e:
            self.error = e
            self.exit(return_code=2)
            return
        for note in _notices(self.session):
            for code, log in self.logs.items():
                log.append(
                    t("note.reconnected", code)
                    if note == "reconnected"
                    else note.say(code)
                    if isinstance(note, Refusal)
                    else str(note)
                )
            changed = True
        link = (self.session.status, self.session.attempt)
        if link != self.link:  # reconnecting, another try, or back
            self.link = link
            if self.session.status == "connected" and self.message_code in LINK_CODES:
                self.message, self.message_code = "", None
            changed = True
        view = self.state.get("view")
        if changed or self.state.get("rev") != self.last_rev or self._clock_running():
            self.render_state()
        elif view:
            self._dialogs(self.state, view)  # e.g. a dialog closed: what waits comes back

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
            hand, dealt, before = self.dealt_hand
            now = (view or {}).get("hand_number"), int((view or {}).get("dealt") or 0)
            if self._dealing() and hand == now[0] and dealt <= now[1]:
                self._follow_cards(before)  # a round came: the selection stays on its cards
            else:
                self.selected = set()
            self.dealt_hand = (*now, list(self.cards))
            if self.hint_rev is not None and self.hint_rev != self.last_rev:
                self.message, self.hint_rev = "", None
            phase = (view or {}).get("phase")
            if phase != self.phase and self.message_code not in LINK_CODES:
                self.message, self.message_code = "", None  # about a moment that has passed
            self.phase = phase
            self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
            room = state.get("room") or {}
            if room.get("now"):
                self.skew = time.time() - float(room["now"])
        for code, tracker in self.trackers.items():
            self.logs[code].extend(tracker.update(state, self.session.chat))
        throws = self.trackers[lang].throws
        if throws:
            self.throw_note = throws[-1]
        width = max(20, self.w_status.content_size.width or 78)
        self.w_status.update("\n".join(status_rows(state, lang, width)))
        self.w_table.update(self.table_text(view))
        hand = self.w_hand
        me = my_seat(state)
        if view and me is not None:
            hand.border_title = f"{t('table.hand', lang)} · {count_cards(len(self.cards), lang)}"
            hand.update(self.hand_text())
        else:
            hand.border_title = ""
            hand.update(t("table.no_hand", lang) if view else "")
            self.spots = []
        self.w_message.update(self.message_text())
        self._rebind()
        if not view:
            return
        self._dialogs(state, view)

    def _follow_cards(self, before: list[str]) -> None:
        """While the cards are dealt the hand grows between two looks: the selection and
        the cursor stay on the cards they were on (not on the places)."""
        now = self.cards
        places: dict[str, list[int]] = {}
        for j, card in enumerate(now):
            places.setdefault(card, []).append(j)
        moved: dict[int, int] = {}
        for i, card in enumerate(before):
            spots = places.get(card)
            if spots:
                moved[i] = spots.pop(0)
        self.selected = {moved[i] for i in self.selected if i in moved}
        self.cursor = moved.get(self.cursor, self.cursor)

    def _dialogs(self, state: dict[str, Any], view: dict[str, Any]) -> None:
        """Offer the decision that waits for this seat (declare, bury, call, the score
        sheet after a hand): called at every change and tick. Nothing stops the table: a
        dialog whose moment has passed closes, the score sheet steps aside when the next
        hand starts, and a decision that comes due while an overlay (help, the sheet) is
        open is offered at once, over it."""
        phase = view["phase"]
        mine = my_turn(state)
        screen: Screen[Any] = self.screen  # typed Screen[object]: no narrowing from that
        if isinstance(screen, DeclareDialog) and screen.free:
            due = phase == "deal" and screen.options == list(state.get("shows") or [])
        elif isinstance(screen, DeclareDialog):
            due = mine and phase in DECLARING_PHASES
        elif isinstance(screen, CallDialog | BuryDialog):
            due = mine and phase == ("call" if isinstance(screen, CallDialog) else "bury")
        elif isinstance(screen, ScoreDialog):  # after a hand: it steps aside for the next
            due = view.get("hand_number") == screen.hand and (
                not screen.after or phase in ("hand_over", "match_over")
            )
        else:
            due = True
        if not due:
            self.pop_screen()  # its moment passed (a timer played for us, the deal went on)
            screen = self.screen
        if isinstance(screen, DeclareDialog | BuryDialog | CallDialog | ConfirmQuit):
            return
        if mine and phase in DECLARING_PHASES and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            shows = list(state.get("shows") or [])
            self.push_screen(DeclareDialog(shows, state, self.session, self.lang), self.declared)
        elif mine and phase == "bury" and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            opts = options_of(state)
            need = opts.kitty_size if opts else kitty_size(int(state["room"]["options"]["decks"]))
            self.push_screen(
                BuryDialog(self.cards, need, state, self.session, self.lang), self.buried
            )
        elif mine and phase == "call" and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            self.push_screen(CallDialog(state, self.session, self.lang), self.called)
        elif (
            phase in ("hand_over", "match_over")
            and self.sheet_hand != view["hand_number"]
            and not isinstance(screen, ModalScreen)
        ):
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

    def seat_rows(self, view: dict[str, Any]) -> list[Text]:
        """One row per seat (partner, left, right, you): where it sits, who, away or
        offline, cards left; then its play in the trick, ``▶`` on the lead and ``★`` on
        the winning play; » marks the seat to act."""
        state = self.state
        lang = self.lang
        color = not self.no_color
        me = my_seat(state) or 0
        trick = view.get("trick") or []
        tricks = view.get("tricks") or []
        # between two tricks the one just won stays in its seats (dim) until the next lead
        done = tricks[-1] if not trick and tricks and view.get("phase") == "play" else None
        played = {p["seat"]: p for p in (done["plays"] if done else trick)}
        n = len(view.get("hand_sizes") or []) or 4
        # four seats: partner, left, right, you; more: in play order after you, you last
        rels = (2, 3, 1, 0) if n == 4 else (*range(1, n), 0)
        order = [(me + rel) % n for rel in rels]
        levels = view.get("levels") or []
        friends = "calls" in view
        common = Counter(str(lv) for lv in levels).most_common(1)[0][0] if levels else None
        titles = {}
        for seat in order:
            flags = "".join(" · " + t(k, lang) for k in seat_flags(state, seat))
            if friends:  # 找朋友: the side as known now, and a level not the common one
                side = side_word(state, seat, lang)
                flags += f" · {side}" if side else ""
                level = str(levels[seat]) if seat < len(levels) else common
                if level != common:
                    flags += " · " + t("status.level", lang, level=level)
            left = count_cards(view["hand_sizes"][seat], lang)
            titles[seat] = f"{seat_title(state, seat, lang)}{flags} ({left})"
        pad = max(cell_len(x) for x in titles.values()) + 2
        rows = []
        for seat in order:
            mark = "» " if view.get("to_act") == seat else "  "
            title = titles[seat]
            row = Text(mark + title + " " * (pad - cell_len(title)))
            p = played.get(seat)
            if p and done:
                lead = "▶" if done["plays"][0]["seat"] == seat else ""
                marks = lead + ("★" if done["winner"] == seat else "")
                row.append(f"{marks:<2} " + card_label_list(p["cards"], lang), style="dim")
            elif p:
                marks = trick_marks(view, seat)
                row.append(f"{marks:<2} ", style="bold yellow" if color else "bold")
                row.append_text(_cards_styled(p["cards"], lang, color))
                if p.get("attempted"):
                    row.append(
                        t("table.failed", lang, cards=card_label_list(p["attempted"], lang)),
                        style="yellow" if color else "",
                    )
            rows.append(row)
        if view.get("trick"):
            points = count_points(trick_points(view), lang)
            rows.append(Text(t("table.trick_legend", lang, points=points), style="dim"))
        return rows

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
            for row in self.seat_rows(view):
                out.append_text(row)
                out.append("\n")
                used += _rows(row.plain, width)
            for extra in (declared_text(state, lang), last_trick_text(state, lang)):
                if extra:
                    lines.append(extra)
            if view.get("kitty"):
                lines.append(t("table.kitty", lang, cards=card_label_list(view["kitty"], lang)))
        for line in lines:
            out.append(line + "\n")
            used += _rows(line, width)
        log = list(self.logs[self.lang])
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
        """The hand, laid out card by card (what a click finds: :attr:`spots`)."""
        cards = self.cards
        trumps = trump_flags(self.state, cards)
        pieces = [
            card_text(
                c,
                lang=self.lang,
                cursor=i == self.cursor,
                selected=i in self.selected,
                trump=trumps[i],
                color=not self.no_color,
            )
            for i, c in enumerate(cards)
        ]
        out, self.spots = layout_cards(pieces, self.w_hand.content_size.width or 76)
        return out

    # -- bindings ------------------------------------------------------------------------------
    def _pending_dialog(self) -> bool:
        """A declaration or the kitty waits for this seat (its dialog may be reopened)."""
        view = self.state.get("view") or {}
        phase = view.get("phase")
        return my_turn(self.state) and (phase in DECLARING_PHASES or phase in ("bury", "call"))

    def _dealing(self) -> bool:
        """The deal runs by itself and this seat may show at any moment of it."""
        view = self.state.get("view") or {}
        return view.get("phase") == "deal" and my_seat(self.state) is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.state
        view = state.get("view") or {}
        lobby = bool(state) and not view
        seated = my_seat(state) is not None
        host = bool((state.get("you") or {}).get("host"))
        if action == "submit":
            return (
                bool(view)
                and seated
                and (view.get("phase") == "play" or self._pending_dialog() or self._dealing())
            )
        if action in ("move", "select_card", "clear"):
            return bool(view) and seated and (view.get("phase") == "play" or self._dealing())
        if action == "show":
            return self._dealing() and bool(state.get("shows"))
        if action == "next_hand":
            return view.get("phase") == "hand_over" and my_turn(state)
        if action == "hint":  # (nobody is asked during the deal: no decision to hint)
            return bool(view) and seated and not self._dealing()
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
        self.message_code = None if refusal is None else refusal.code
        return "" if refusal is None else "✗ " + refusal.say(self.lang)

    def _act(self, action: dict[str, Any]) -> None:
        """Send a decision; refused, its dialog is offered again (with the reason)."""
        refusal = self.session.act(action)
        self.message = self._say(refusal)
        if refusal is not None:
            self.dialog_rev = -1
        self.render_state()

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.render_state()

    def on_key(self, event: events.Key) -> None:
        """A rank (2-9, 0 or T for 10, J Q K A) or a suit (S H C D, W: a joker) moves the
        cursor to the next such card."""
        char = event.character or ""
        if len(char) != 1 or char in "hq" or not self.check_action("move", ()) or not self.cards:
            return  # (h and q are help and quit: Shift+H, Shift+Q jump)
        if char == "d" and self._dealing():
            return  # d shows (亮主) while the cards are dealt
        cards = self.cards
        for step in range(1, len(cards) + 1):
            i = (self.cursor + step) % len(cards)
            if jump_matches(cards[i], char):
                self.cursor = i
                event.stop()
                self.render_state()
                return

    def on_click(self, event: events.Click) -> None:
        """A click on a card of the hand selects it (or unselects it)."""
        offset = event.get_content_offset(self.w_hand)
        if offset is None or not self.check_action("select_card", ()):
            return
        i = card_at(self.spots, offset.x, offset.y)
        if i is not None:
            self.cursor = i
            self.action_select_card()

    def action_select_card(self) -> None:
        if not self.cards:
            return
        self.selected ^= {self.cursor}
        self.message = ""
        self.check_selection()
        self.render_state()

    def check_selection(self) -> None:
        """Say whether the selection may be played (or, during the deal, shown) now: the
        rule that forbids it."""
        view = self.state.get("view") or {}
        if self._dealing() and self.selected:
            refusal = self.session.check({"type": "declare", "cards": self.chosen()})
            self.message = self._say(refusal) if refusal else t("sel.show", self.lang)
        elif my_turn(self.state) and view.get("phase") == "play" and self.selected:
            cards = self.chosen()
            refusal = self.session.check({"type": "play", "cards": cards})
            if refusal:
                self.message = self._say(refusal)
            elif is_throw(self.state, cards):
                self.message = "⚠ " + t("sel.throw", self.lang)
            else:
                self.message = t("sel.legal", self.lang)

    def action_clear(self) -> None:
        """Esc: nothing selected."""
        self.selected = set()
        self.message = ""
        self.render_state()

    def action_submit(self) -> None:
        view = self.state.get("view") or {}
        if self._pending_dialog():  # Enter reopens the dialog that waits for us
            self.dialog_rev = -1
            self._dialogs(self.state, view)
            return
        if self._dealing():  # Enter shows the cards selected, or opens the shows held
            if self.selected:
                self._act({"type": "declare", "cards": self.chosen()})
            else:
                self.action_show()
            return
        if not my_turn(self.state) or view.get("phase") != "play":
            return
        if not self.selected:
            self.message, self.message_code = t("sel.none", self.lang), None
            self.render_state()
            return
        self.throw_note = ""
        self.message = self._say(self.session.act({"type": "play", "cards": self.chosen()}))
        self.render_state()

    def action_show(self) -> None:
        """d: show (亮主) while the cards are dealt; one show is made at once, several are
        offered (the deal goes on meanwhile)."""
        shows = list(self.state.get("shows") or [])
        if not self._dealing() or not shows:
            return
        if len(shows) == 1:
            self._act({"type": "declare", "cards": shows[0]})
        elif not isinstance(self.screen, ModalScreen):
            self.push_screen(
                DeclareDialog(shows, self.state, self.session, self.lang, free=True), self.declared
            )

    def action_next_hand(self) -> None:
        view = self.state.get("view") or {}
        if view.get("phase") == "hand_over" and my_turn(self.state):
            self.throw_note = ""
            self.message = self._say(self.session.act({"type": "continue"}))
            self.render_state()

    def action_hint(self) -> None:
        def show(text: str, action: dict[str, Any] | None) -> None:
            if action and action.get("type") == "play":
                picked = positions(self.cards, str(action["cards"]).split())
                self.selected = set(picked)
                self.cursor = picked[0] if picked else self.cursor
            self.message = text
            self.hint_rev = self.state.get("rev")  # a hint is gone once the table moves
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

    def declared(self, choice: str | None) -> None:
        """The declare dialog's answer: a show's cards, or a pass (during the deal, where
        nobody passes: not showing now)."""
        if choice:
            self._act({"type": "declare", "cards": choice})
        elif not self._dealing():
            self._act({"type": "pass"})
        else:
            self.render_state()

    def called(self, calls: str | None) -> None:
        """The call dialog's answer: the calls typed (None: closed, Enter reopens it)."""
        if calls:
            self._act({"type": "call", "calls": calls})
        else:
            self.render_state()

    def buried(self, cards: str | None) -> None:
        self._act({"type": "bury", "cards": cards or ""})

    def sheet_closed(self, go_on: bool | None) -> None:
        if go_on:
            self.action_next_hand()
        else:
            self.render_state()


def _notices(session: Session) -> list[str | Refusal]:
    notices: list[str | Refusal] = getattr(session, "notices", [])
    taken = list(notices)
    notices.clear()
    return taken
