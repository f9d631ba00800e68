"""``shengji play``: a keyboard-first Textual table.

Keys: ←/→ move, space selects, Enter plays (or buries) the selection, 1–9 pick a
declaration and p passes (in the declaring dialog), n starts the next hand, ? asks the
bot in your seat for a hint, q quits. A selection is checked as you make it, so the rule
that forbids it shows before you send it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..cards import kitty_size
from ..presets import load_preset
from ..trump import TRUMP, TrumpContext
from .session import Session
from .text import PHASES, SUITS, WORDS, my_turn, pretty

RED = {"H", "D"}


def card_text(
    card: str, *, cursor: bool = False, selected: bool = False, trump: bool = False
) -> Text:
    """One card as styled text."""
    label = card if card in ("BJ", "LJ") else SUITS[card[0]] + card[1:]
    style = "bold red" if card[0] in RED or card == "BJ" else "bold"
    if trump:
        style += " underline"
    if selected:
        style += " reverse"
    t = Text(f"[{label}]" if cursor else f" {label} ", style=style)
    return t


class DeclareDialog(ModalScreen[int | None]):
    """Choose a declaration (1..n) or pass (p)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p,escape", "choose(0)", "pass")]

    def __init__(self, options: list[str], lang: str) -> None:
        super().__init__()
        self.options = options
        self.lang = lang

    def compose(self) -> ComposeResult:
        w = WORDS[self.lang]
        lines = [f"{i + 1}) {w['declare']} {pretty(s)}" for i, s in enumerate(self.options)]
        lines.append(f"p) {w['pass']}")
        title = "亮主 / 反主?" if self.lang == "zh" else "Declare?"
        yield Vertical(Static(title, id="dlg-title"), Static("\n".join(lines)), id="dialog")

    def on_key(self, event: Any) -> None:
        if event.key.isdigit() and 1 <= int(event.key) <= len(self.options):
            self.dismiss(int(event.key))

    def action_choose(self, n: int) -> None:
        self.dismiss(n)


class BuryDialog(ModalScreen[str]):
    """Choose the kitty (扣底): ←/→ move, space selects, Enter buries when enough are chosen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←"),
        Binding("right", "move(1)", "→"),
        Binding("space", "select_card", "select"),
        Binding("enter", "bury", "bury"),
    ]

    def __init__(self, cards: list[str], need: int, lang: str) -> None:
        super().__init__()
        self.cards = cards
        self.need = need
        self.lang = lang
        self.cursor = 0
        self.selected: set[int] = set()

    def compose(self) -> ComposeResult:
        title = f"扣底: 选 {self.need} 张" if self.lang == "zh" else f"Bury {self.need} cards"
        yield Vertical(
            Static(title, id="dlg-title"),
            Static(id="bury-hand"),
            Static(id="bury-count"),
            id="dialog",
        )

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        out = Text()
        for i, c in enumerate(self.cards):
            out.append_text(card_text(c, cursor=i == self.cursor, selected=i in self.selected))
        self.query_one("#bury-hand", Static).update(out)
        self.query_one("#bury-count", Static).update(f"{len(self.selected)}/{self.need}")

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.cards)
        self.redraw()

    def action_select_card(self) -> None:
        self.selected ^= {self.cursor}
        self.redraw()

    def action_bury(self) -> None:
        if len(self.selected) == self.need:
            self.dismiss(" ".join(self.cards[i] for i in sorted(self.selected)))


class ScoreDialog(ModalScreen[None]):
    """The score sheet between hands; n continues."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("n,enter,escape", "close", "next hand")]

    def __init__(self, rows: list[dict[str, Any]], lang: str, over: bool) -> None:
        super().__init__()
        self.rows = rows
        self.lang = lang
        self.over = over

    def compose(self) -> ComposeResult:
        title = "记分表" if self.lang == "zh" else "Score sheet"
        lines = [
            f"{r['number'] + 1:>2}. {r['points']:>4}  {r['explain'][self.lang]}" for r in self.rows
        ]
        end = (
            PHASES[self.lang]["match_over"]
            if self.over
            else ("n: 下一局" if self.lang == "zh" else "n: next hand")
        )
        yield Vertical(
            Static(title, id="dlg-title"), Static("\n".join(lines)), Static(end), id="dialog"
        )

    def action_close(self) -> None:
        self.dismiss(None)


class TableApp(App[None]):
    """The table: status, the trick in progress, your hand, messages."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: 2; background: $boost; padding: 0 1; }
    #table { height: 1fr; padding: 0 1; border: round $primary; }
    #hand { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    #message { height: 2; padding: 0 1; color: $warning; }
    #dialog { width: 70; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    DeclareDialog, ScoreDialog { align: center middle; }
    #dlg-title { text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←"),
        Binding("right", "move(1)", "→"),
        Binding("space", "select_card", "select"),
        Binding("enter", "submit", "play"),
        Binding("n", "next_hand", "next hand"),
        Binding("question_mark", "hint", "hint"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: Session, lang: str = "en") -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.cursor = 0
        self.selected: set[int] = set()
        self.message = ""
        self.last_rev = -1
        self.dialog_rev = -1
        self.sheet_hand = -1

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="hand")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "升级 Shengji"
        self.set_interval(0.1, self.tick)
        self.render_state()

    # -- state ---------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        return self.session.state

    @property
    def cards(self) -> list[str]:
        view = self.state.get("view") or {}
        return str(view.get("hand", "")).split()

    def tick(self) -> None:
        if self.session.poll() or self.state.get("rev") != self.last_rev:
            self.render_state()

    def render_state(self) -> None:
        state = self.state
        view = state.get("view")
        if not view:
            return
        if state["rev"] != self.last_rev:
            self.last_rev = state["rev"]
            self.selected = set()
            self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
        w = WORDS[self.lang]
        trump = view["trump"]
        trump_text = "?" if trump is None else w["nt"] if trump == "NT" else SUITS[trump]
        banker = "?" if view["banker"] is None else str(view["banker"])
        pts = view["collector_points"] + (view["penalties"] or 0)
        self.query_one("#status", Static).update(
            f"{PHASES[self.lang][view['phase']]} · {w['level']} {view['level']} · "
            f"{w['trump']} {trump_text} · {w['banker']} {banker} · {w['points']} {pts} · "
            f"levels {view['levels'][0]}/{view['levels'][1]}"
        )
        self.query_one("#table", Static).update(self.table_text(view))
        self.query_one("#hand", Static).update(self.hand_text(view))
        self.query_one("#message", Static).update(self.message or self.prompt())
        declaring = view["phase"] in ("deal", "before_kitty", "after_burial")
        if my_turn(state) and declaring and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            shows = list(state.get("shows") or [])
            self.push_screen(DeclareDialog(shows, self.lang), self.declared)
        if my_turn(state) and view["phase"] == "bury" and self.dialog_rev != state["rev"]:
            self.dialog_rev = state["rev"]
            need = kitty_size(state["room"]["options"]["decks"])
            self.push_screen(BuryDialog(self.cards, need, self.lang), self.buried)
        if view["phase"] in ("hand_over", "match_over") and self.sheet_hand != view["hand_number"]:
            self.sheet_hand = view["hand_number"]
            self.push_screen(
                ScoreDialog(view["score_sheet"], self.lang, view["phase"] == "match_over"),
                self.sheet_closed,
            )

    def prompt(self) -> str:
        from .text import prompt

        return prompt(self.state, self.lang, keys=True)

    def table_text(self, view: dict[str, Any]) -> Text:
        me = self.state["you"]["seat"] or 0
        names = self.state["room"]["seats"]
        out = Text()
        played = {p["seat"]: p["cards"] for p in view["trick"]}
        for rel, label in ((2, "↑"), (3, "←"), (1, "→"), (0, "↓")):
            seat = (me + rel) % 4
            mark = "▶ " if view["to_act"] == seat else "  "
            name = names[seat]["name"] if seat < len(names) else str(seat)
            out.append(f"{mark}{label} {seat} {name} ({view['hand_sizes'][seat]}): ")
            out.append(pretty(played.get(seat, "")) + "\n")
        if view["tricks"] and not view["trick"]:
            last = view["tricks"][-1]
            plays = "  ".join(f"{p['seat']}: {pretty(p['cards'])}" for p in last["plays"])
            out.append(f"{WORDS[self.lang]['last']}: {plays} → {last['winner']}\n")
        if view.get("kitty"):
            out.append(f"{WORDS[self.lang]['kitty']}: {pretty(view['kitty'])}\n")
        return out

    def hand_text(self, view: dict[str, Any]) -> Text:
        room = self.state["room"]
        ctx = None
        if view["trump"] is not None:
            opts = load_preset(room["preset"], room["overrides"] or None)
            ctx = TrumpContext(opts, view["level"], view["trump"])
        from ..cards import parse_card

        out = Text()
        for i, c in enumerate(self.cards):
            is_trump = ctx is not None and ctx.suit_of[parse_card(c).index] == TRUMP
            out.append_text(
                card_text(c, cursor=i == self.cursor, selected=i in self.selected, trump=is_trump)
            )
        return out

    # -- actions ---------------------------------------------------------------------------
    def chosen(self) -> str:
        return " ".join(self.cards[i] for i in sorted(self.selected))

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.render_state()

    def action_select_card(self) -> None:
        if not self.cards:
            return
        self.selected ^= {self.cursor}
        self.message = ""
        view = self.state["view"]
        if my_turn(self.state) and view["phase"] in ("play", "bury") and self.selected:
            if view["phase"] == "bury":
                need = kitty_size(self.state["room"]["options"]["decks"])
                self.message = f"{len(self.selected)}/{need}"
            else:
                error = self.session.check({"type": "play", "cards": self.chosen()})
                self.message = error or ("✓ 可以出" if self.lang == "zh" else "✓ legal")
        self.render_state()

    def action_submit(self) -> None:
        view = self.state.get("view") or {}
        if not my_turn(self.state) or view.get("phase") not in ("play", "bury"):
            return
        error = self.session.act({"type": view["phase"], "cards": self.chosen()})
        self.message = error or ""
        self.render_state()

    def action_next_hand(self) -> None:
        view = self.state.get("view") or {}
        if view.get("phase") == "hand_over":
            self.message = self.session.act({"type": "continue"}) or ""
            self.render_state()

    def action_hint(self) -> None:
        hint = self.session.hint(self.lang)
        if hint is None:
            self.message = "—"
        else:
            action, why = hint
            self.message = f"? {action['type']} {pretty(action.get('cards', ''))} — {why}"
        self.render_state()

    def declared(self, choice: int | None) -> None:
        shows = self.state.get("shows") or []
        action = {"type": "declare", "cards": shows[choice - 1]} if choice else {"type": "pass"}
        self.message = self.session.act(action) or ""
        self.render_state()

    def buried(self, cards: str | None) -> None:
        self.message = self.session.act({"type": "bury", "cards": cards or ""}) or ""
        self.render_state()

    def sheet_closed(self, _: None) -> None:
        self.action_next_hand()
