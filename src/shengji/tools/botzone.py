"""An adapter for Botzone's Tractor (双升) game: one JSON input in, one answer out.

Botzone runs a bot once per turn and gives it, on one line, every request it has had and
every answer it gave: ``{"requests": [...], "responses": [...]}``. A request is a stage:

- ``deal``: ``deliver`` holds the card just dealt; the answer is ``[]``, ``[id]`` to
  declare with one level card or ``[id, id]`` to override with a pair (level cards, or
  jokers: no trump);
- ``cover``: the banker gets the 8 kitty cards in ``deliver`` and answers 8 ids to bury;
- ``play``: ``history`` is ``[previous trick, current trick, its leader, current leader]``
  (plays in order, leader first) and ``global.total_score`` the collectors' points so far;
  the answer is the cards to play.

A bot's first request carries its seat, ``playerpos``. Every request has ``global``:
``level`` and ``banking`` (``banker``, ``called``,
``snatched``: seats or -1, ``major``: ``s h c d``, ``n`` for no trump, empty before a
declaration). Cards are ids 0–107: ``id % 54`` is 52 for the little joker, 53 for the big
joker, otherwise rank ``"A234567890JQK"[n // 4]`` and suit ``"shcd"[n % 4]``.

:func:`read_input` turns the input into what the seat knows (:class:`Knowledge`) and
:func:`seat_view_of` into the :class:`~shengji.game.views.SeatView` a bot is given, so any bot of
the registry answers; it never sees more than the requests say. :func:`referee` plays a
whole hand between four adapters with the game engine as the judge and returns each
seat's Botzone history (the recorded games in the tests).

>>> card_of_id(0), card_of_id(54 + 36), card_of_id(106), card_id_base(parse_card("D10"))
(SA, S10, LJ, 39)
>>> answer({"requests": [{"stage": "deal", "deliver": [5],
...                       "global": {"level": "2", "banking": {"banker": -1, "called": -1,
...                                  "snatched": -1, "major": ""}}}],
...         "responses": []})
[5]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..bots.registry import make_player
from ..errors import Code, ShengjiError
from ..game.actions import Action, Bury, Declare, Pass, Play
from ..game.flow import apply, new_match
from ..game.state import GameState, Trick, TrickPlay
from ..game.views import SeatView
from ..rules.cards import Card, Suit, card_from_index, parse_card, points, rank_text  # noqa: F401
from ..rules.declaring import DeclareState
from ..rules.options import RuleOptions
from ..rules.phases import Phase
from ..rules.presets import load_preset
from ..rules.trump import trump_context
from ..rules.units import classify_lead

RANK_TEXT = "A234567890JQK"
SUIT_TEXT = "shcd"
_SUITS = (Suit.S, Suit.H, Suit.C, Suit.D)
_PHASES: dict[str, Phase] = {"deal": "deal", "cover": "bury", "play": "play"}
_STAGES = ("deal", "cover", "play")
#: Botzone's game: two decks (ids 0–107) among four seats, 25 cards each and 8 in the kitty.
HAND_SIZE, KITTY_SIZE = 25, 8
_RANK_OF = {"A": 14, "0": 10, "J": 11, "Q": 12, "K": 13} | {str(r): r for r in range(2, 10)}


def _bad(message: str) -> ShengjiError:
    return ShengjiError(f"not a Botzone Tractor input: {message}", code=Code.BAD_MESSAGE)


def card_of_id(n: int) -> Card:
    """The card of a Botzone id (0–107; the two decks are ``n`` and ``n + 54``)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 108:
        raise _bad(f"{n!r} is not a card id 0..107")
    m = n % 54
    if m >= 52:
        return card_from_index(m)
    rank = _RANK_OF[RANK_TEXT[m // 4]]
    return card_from_index(int(_SUITS[m % 4]) * 13 + rank - 2)


def card_id_base(card: Card) -> int:
    """The id (0–53) of a card's first copy; the second copy is 54 more."""
    if card.is_joker:
        return card.index
    assert card.suit is not None
    text = "0" if card.rank == 10 else rank_text(card.rank)[0]
    return RANK_TEXT.index(text) * 4 + _SUITS.index(card.suit)


def ids_for(cards: Sequence[Card], held: Sequence[int]) -> list[int]:
    """Ids from ``held`` for ``cards`` (one id per card, each id used once)."""
    free = list(held)
    out = []
    for c in cards:
        base = card_id_base(c)
        i = next((i for i in free if i % 54 == base), None)
        if i is None:
            raise _bad(f"{c.text} is not among the held ids")
        free.remove(i)
        out.append(i)
    return out


def _level(text: Any) -> int:
    t = str(text).strip().upper()
    t = "0" if t in ("10", "T") else t
    if t not in _RANK_OF:
        raise _bad(f"{text!r} is not a level")
    return _RANK_OF[t]


@dataclass(frozen=True, slots=True)
class Banking:
    """``global.banking`` of a request: seats (None for -1) and the trump letter."""

    banker: int | None
    called: int | None
    snatched: int | None
    major: str

    @classmethod
    def parse(cls, data: Any) -> Banking:
        """Read a ``banking`` object (missing fields: nobody, no trump yet)."""
        if not isinstance(data, Mapping):
            data = {}

        def seat(key: str) -> int | None:
            v = data.get(key, -1)
            if isinstance(v, bool) or not isinstance(v, int) or not -1 <= v <= 3:
                raise _bad(f"banking.{key} must be a seat 0..3 or -1, not {v!r}")
            return None if v < 0 else v

        major = str(data.get("major") or "").lower()
        if major not in ("", "n", *SUIT_TEXT):
            raise _bad(f"banking.major must be one of s h c d n, not {major!r}")
        return cls(seat("banker"), seat("called"), seat("snatched"), major)

    @property
    def trump(self) -> Suit | None:
        """The trump suit (None: no trump, or nothing declared yet)."""
        return _SUITS[SUIT_TEXT.index(self.major)] if self.major in SUIT_TEXT else None

    def to_json(self) -> dict[str, Any]:
        """The Botzone form (-1 for nobody)."""
        return {
            "banker": -1 if self.banker is None else self.banker,
            "called": -1 if self.called is None else self.called,
            "snatched": -1 if self.snatched is None else self.snatched,
            "major": self.major,
        }


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat knows from its Botzone input: the stage, its seat (None when the
    requests do not tell it yet), the level and banking, its held ids, the ids just
    delivered, the collectors' points (``total_score``, in the play stage), the kitty it
    picked up and buried (banker), the finished tricks it saw and the current trick."""

    stage: str
    seat: int | None
    level: int
    banking: Banking
    first_hand: bool
    held: tuple[int, ...]
    deliver: tuple[int, ...]
    total_score: int | None
    kitty: tuple[int, ...]
    buried: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trick: tuple[TrickPlay, ...]
    leader: int


def _ids(v: Any, what: str) -> list[int]:
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list of card ids")
    for n in v:
        card_of_id(n)
    return list(v)


def _plays(history: list[Any], k: int, leader: int) -> tuple[TrickPlay, ...]:
    return tuple(
        TrickPlay((leader + i) % 4, tuple(card_of_id(n) for n in _ids(p, "a play")))
        for i, p in enumerate(history[k])
    )


def _history(req: Mapping[str, Any]) -> list[Any]:
    h: Any = req.get("history")
    ok = isinstance(h, list) and len(h) == 4 and isinstance(h[0], list)
    if not ok or not isinstance(h[1], list) or len(h[0]) > 4 or len(h[1]) > 3:
        raise _bad("history must be [previous trick, current trick, leader, leader]")
    for k in (2, 3):
        if isinstance(h[k], bool) or not isinstance(h[k], int) or not 0 <= h[k] <= 3:
            raise _bad("history[2] and history[3] must be seats 0..3")
    return list(h)


def read_input(data: Any) -> Knowledge:
    """What the seat knows from a Botzone input ``{"requests": [...], "responses": [...]}``
    (the responses to every request but the last). Raises ShengjiError ``BAD_MESSAGE``."""
    if not isinstance(data, Mapping):
        raise _bad("the input must be an object")
    requests, responses = data.get("requests"), data.get("responses", [])
    if not isinstance(requests, list) or not requests or not isinstance(responses, list):
        raise _bad("'requests' must be a non-empty list and 'responses' a list")
    if len(responses) < len(requests) - 1:
        raise _bad("every request but the last needs its response")
    held: list[int] = []
    tricks: list[Trick] = []
    kitty: tuple[int, ...] = ()
    buried: tuple[int, ...] = ()
    seat: int | None = None
    told: int | None = None  # the seat the judge's playerpos gives
    shown = 0  # cards this seat showed in its last deal answer
    first_banking: Banking | None = None
    given: set[int] = set()  # every id this seat was given: dealt, and the kitty
    dealt = 0  # cards dealt to this seat (the kitty not counted)
    played: set[int] = set()  # every id of the finished tricks
    answered: list[int] | None = None  # this seat's answer to its last play request
    stage_no = 0  # deal, cover, play: the stages come in this order
    for i, req in enumerate(requests):
        if not isinstance(req, Mapping) or req.get("stage") not in _STAGES:
            raise _bad(f"request {i} must have a stage deal, cover or play")
        stage = req["stage"]
        if _STAGES.index(stage) < stage_no:
            raise _bad(f"request {i} is a {stage} request after the {_STAGES[stage_no]} stage")
        stage_no = _STAGES.index(stage)
        glob = req.get("global")
        pos = _playerpos(req, glob)
        if pos is not None:
            if told is not None and pos != told:
                raise _bad(f"playerpos changed from {told} to {pos}")
            told = seat = pos
        banking = Banking.parse(glob.get("banking") if isinstance(glob, Mapping) else None)
        first_banking = first_banking or banking
        if shown and told is None:  # what this seat showed is in the next request's banking
            seat = banking.called if shown == 1 else banking.snatched
        shown = 0
        last = i == len(requests) - 1
        reply = None if last else _ids(responses[i], f"response {i}")
        if stage in ("deal", "cover"):
            delivered = _ids(req.get("deliver"), "deliver")
            again = given.intersection(delivered)
            if again or len(set(delivered)) < len(delivered):
                raise _bad(f"card id {min(again or delivered)} is dealt twice")
            given.update(delivered)
            held += delivered
        if stage == "deal":
            dealt += len(delivered)
            if dealt > HAND_SIZE:
                raise _bad(f"more than {HAND_SIZE} cards are dealt to this seat")
            for n in reply or ():
                if n not in held:
                    raise _bad(f"response {i} shows card id {n}, which this seat does not hold")
            shown = len(reply or ())
        if stage == "cover":
            if kitty:
                raise _bad(f"request {i} delivers the kitty a second time")
            if dealt != HAND_SIZE or len(delivered) != KITTY_SIZE:
                raise _bad(
                    f"the {KITTY_SIZE} kitty cards come after the {HAND_SIZE} dealt, "
                    f"not {len(delivered)} after {dealt}"
                )
            if told is not None and banking.banker != told:
                raise _bad(f"the kitty goes to seat {banking.banker}, not to this seat {told}")
            seat = banking.banker
            kitty = tuple(delivered)
            if reply is not None:
                if len(reply) != KITTY_SIZE:
                    raise _bad(f"response {i} buries {len(reply)} cards, not {KITTY_SIZE}")
                buried = tuple(reply)
                _take(held, reply)
        if stage == "play":
            h = _history(req)
            seat = me = (h[3] + len(h[1])) % 4
            if told is not None and me != told:
                raise _bad(f"the history asks seat {me} to play, but this bot is seat {told}")
            if dealt != HAND_SIZE:
                raise _bad(f"this seat is asked to play after {dealt} of its {HAND_SIZE} cards")
            if answered is not None and not h[0]:
                raise _bad("history[0] must hold the previous trick, which this seat played in")
            if h[0]:
                if len(h[0]) != 4:
                    raise _bad("history[0] must hold the four plays of the previous trick")
                _check_trick(h[0], h[2], me, given, held, played)
                mine = h[0][(me - h[2]) % 4]
                if answered is not None and Counter(mine) - Counter(answered):
                    raise _bad("history[0] shows this seat playing cards it did not answer")
                plays = _plays(h, 0, h[2])
                pts = points(c for p in plays for c in p.cards)
                tricks.append(Trick(plays, h[3], pts))
                _take(held, mine)
                played.update(n for p in h[0] for n in p)
            _check_trick(h[1], h[3], me, given, held, played)
            answered = reply
    req = requests[-1]
    glob = req.get("global")
    assert first_banking is not None
    trick: tuple[TrickPlay, ...] = ()
    leader = banking.banker if banking.banker is not None else 0
    if req["stage"] == "play":
        h = _history(req)
        trick, leader = _plays(h, 1, h[3]), h[3]
        if not held:
            raise _bad("this seat is asked to play with no cards left")
    return Knowledge(
        stage=req["stage"],
        seat=seat,
        level=_level(glob.get("level", "2") if isinstance(glob, Mapping) else "2"),
        banking=banking,
        first_hand=first_banking.banker is None,
        held=tuple(held),
        deliver=tuple(_ids(req.get("deliver", []), "deliver")),
        total_score=_score(glob.get("total_score") if isinstance(glob, Mapping) else None),
        kitty=kitty,
        buried=buried,
        tricks=tuple(tricks),
        trick=trick,
        leader=leader,
    )


def _check_trick(
    trick: list[Any], leader: int, me: int, given: set[int], held: list[int], played: set[int]
) -> None:
    """Refuse a trick (plays in order from ``leader``; this seat is ``me``) that cannot be:
    a play of another size than the lead, a card played twice (in it, or in an earlier
    trick), another seat playing a card this seat was given."""
    seen: set[int] = set()
    for k, play in enumerate(trick):
        who = (leader + k) % 4
        ids = _ids(play, "a play")
        if not ids or len(ids) != len(trick[0]):
            raise _bad("every play of a trick has as many cards as the lead, and at least one")
        for n in ids:
            if n in seen or n in played:
                raise _bad(f"card id {n} is played twice")
            seen.add(n)
            if who != me and n in given:
                where = "holds" if n in held else "was given"
                raise _bad(f"seat {who} plays card id {n}, which this seat {where}")


def _playerpos(req: Mapping[str, Any], glob: Any) -> int | None:
    """The seat Botzone's judge tells the bot (``playerpos``, in its first request), if
    this request carries it."""
    pos = req.get("playerpos")
    if pos is None and isinstance(glob, Mapping):
        pos = glob.get("playerpos")
    if pos is None:
        return None
    if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= 3:
        raise _bad(f"playerpos must be a seat 0..3, not {pos!r}")
    return int(pos)


def _score(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _bad(f"total_score must be an integer, not {v!r}")
    return int(v)


def _take(held: list[int], ids: Sequence[int]) -> None:
    for n in ids:
        if n not in held:
            raise _bad(f"card id {n} is played or buried but was never held")
        held.remove(n)


def declare_state(k: Knowledge) -> DeclareState:
    """The declarations as far as ``banking`` tells them (which cards were shown is not
    given, only who called, who overrode and the trump)."""
    b = k.banking
    holder = b.snatched if b.snatched is not None else b.called
    declared = holder is not None or b.major != ""
    pair = b.snatched is not None
    return DeclareState(
        first_hand=k.first_hand,
        banker=b.banker,
        declared=declared,
        trump=b.trump,
        holder=holder,
        first_declarer=b.called,
        rung=(2 if pair else 1) if declared else 0,
        priority=-1,
        counters=1 if pair else 0,
        pair_seats=frozenset({b.snatched}) if b.snatched is not None else frozenset(),
        locked=pair,
    )


def seat_view_of(k: Knowledge, options: RuleOptions) -> SeatView:
    """The seat's view for a bot, built from the Botzone input alone. When the seat is not
    known yet (a deal request before this seat declared), it is taken to be the seat after
    the current holder of the trump (an opponent of it), or seat 0."""
    holder = k.banking.snatched if k.banking.snatched is not None else k.banking.called
    seat = k.seat if k.seat is not None else (0 if holder is None else (holder + 1) % 4)
    level = k.level
    declare = declare_state(k)
    ctx = trump_context(options, level, k.banking.trump)
    hand = tuple(card_of_id(n) for n in k.held)
    lead = classify_lead(ctx, k.trick[0].cards) if k.trick else None
    played = [0, 0, 0, 0]
    for plays in (*(t.plays for t in k.tricks), k.trick):
        for p in plays:
            played[p.seat] += len(p.cards)
    size = options.hand_size
    if k.stage == "deal":  # dealt one by one: the others hold about as many
        hand_sizes: tuple[int, ...] = (len(hand),) * 4
    else:
        hand_sizes = tuple(len(hand) if s == seat else size - played[s] for s in range(4))
    collected = sum(
        t.points for t in k.tricks if declare.banker is None or t.winner % 2 != declare.banker % 2
    )
    seen = tuple(
        (kind, tuple(card_of_id(n) for n in ids))
        for kind, ids in (("picked_up", k.kitty), ("buried", k.buried))
        if ids
    )
    return SeatView(
        seat=seat,
        options=options,
        ctx=ctx,
        phase=_PHASES[k.stage],
        hand_number=0,
        levels=(level, level),
        level=level,
        declare=declare,
        to_act=seat,
        hand=hand,
        hand_sizes=hand_sizes,
        dealt=4 * size if k.stage != "deal" else 4 * len(hand),
        leader=k.leader,
        trick=k.trick,
        lead=lead,
        tricks=k.tricks,
        trick_points=collected,
        penalties=0 if k.total_score is None else k.total_score - collected,
        coins=(0, 0),
        results=(),
        kitty_seen=seen,
        kitty=None,
        winner=None,
    )


def answer(
    data: Any, spec: str = "heuristic", seed: int = 0, options: RuleOptions | None = None
) -> list[int]:
    """The response (card ids) to a Botzone input, chosen by the bot ``spec`` (seeded with
    ``seed`` and the turn number) under ``options`` (default: the ``botzone`` preset). In the
    deal stage it shows only with the card just dealt, as Botzone's sample bots do."""
    k = read_input(data)
    view = seat_view_of(k, options or load_preset("botzone"))
    assert view.seat is not None
    turn = len(data["requests"])
    return _ids_of(make_player(spec, view.seat, seed * 1000 + turn).act(view), k)


def _ids_of(action: Action, k: Knowledge) -> list[int]:
    if k.stage == "deal":
        if not isinstance(action, Declare) or not k.deliver:
            return []
        new = card_of_id(k.deliver[0])
        if new not in action.cards:
            return []
        rest = [n for n in k.held if n != k.deliver[0]]
        return [k.deliver[0], *ids_for(action.cards[1:], rest)]
    if isinstance(action, Bury | Play):
        return ids_for(action.cards, k.held)
    raise _bad(f"the bot answered {action!r} in the {k.stage} stage")  # pragma: no cover


def answer_line(line: str, spec: str = "heuristic", seed: int = 0) -> str:
    """One Botzone turn: the input line in, ``{"response": [...]}`` out, by bot ``spec``."""
    return Session(spec, seed).turn(line)


#: What a bot prints after its answer to ask Botzone to keep it running: the next turn
#: then sends only the new request, one JSON line, to the same process.
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class Session:
    """A bot kept running between turns (Botzone's keep-running mode): the first line is a
    whole input (``{"requests", "responses"}``), each later line one new request; the
    session keeps the history and its own answers, so no turn pays the start-up again."""

    def __init__(self, spec: str = "heuristic", seed: int = 0) -> None:
        self.spec, self.seed = spec, seed
        self.requests: list[Any] = []
        self.responses: list[Any] = []

    def turn(self, line: str) -> str:
        """The answer line to one input line (raises ShengjiError ``BAD_MESSAGE``)."""
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise _bad(f"the input is not JSON ({e.msg})") from None
        if isinstance(data, Mapping) and "requests" in data:  # a whole input: start over
            requests, responses = data.get("requests"), data.get("responses", [])
            if not isinstance(requests, list) or not isinstance(responses, list):
                raise _bad("'requests' and 'responses' must be lists")
            self.requests, self.responses = list(requests), list(responses)
        elif not self.requests:
            raise _bad("the first input must hold 'requests' and 'responses'")
        else:
            self.requests.append(data)
        got = answer({"requests": self.requests, "responses": self.responses}, self.spec, self.seed)
        self.responses = [*self.responses[: len(self.requests) - 1], got]
        return json.dumps({"response": got}, separators=(",", ":"))


def serve(
    stdin: TextIO,
    stdout: TextIO,
    spec: str = "heuristic",
    seed: int = 0,
    keep_running: bool = False,
) -> None:
    """Answer Botzone's input on ``stdin``: its one line, or with ``keep_running`` every
    line until the input ends, each answer followed by :data:`KEEP_RUNNING` (raises
    ShengjiError ``BAD_MESSAGE`` on an input that cannot be answered)."""
    if not keep_running:
        print(answer_line(stdin.readline(), spec, seed), file=stdout, flush=True)
        return
    session = Session(spec, seed)
    for line in stdin:
        if line.strip():
            print(session.turn(line), KEEP_RUNNING, sep="\n", file=stdout, flush=True)


USAGE = "usage: python -m shengji.tools.botzone [--player SPEC] [--seed N] [--keep-running]"


def main(argv: Sequence[str] | None = None) -> int:
    """The bot as Botzone starts it: ``python -m shengji.tools.botzone [--player SPEC] [--seed N]
    [--keep-running]`` is ``shengji botzone`` without the command line's parser (and its
    imports), the lightest start for a process started every turn. Exit status 2, the
    error on stderr, for bad arguments or an input that cannot be answered."""
    args = list(sys.argv[1:] if argv is None else argv)
    spec, seed, keep = "heuristic", "0", False
    while args:
        flag, _, value = args.pop(0).partition("=")
        if flag == "--keep-running" and not value:
            keep = True
        elif flag in ("--player", "--seed") and (value or args):
            value = value or args.pop(0)
            spec, seed = (value, seed) if flag == "--player" else (spec, value)
        else:
            print(f"{USAGE}\nerror: {flag!r} is not understood", file=sys.stderr)
            return 2
    if not (seed.isascii() and seed.lstrip("-").isdigit()):
        print(f"{USAGE}\nerror: --seed takes an integer, not {seed!r}", file=sys.stderr)
        return 2
    try:
        serve(sys.stdin, sys.stdout, spec, int(seed), keep)
    except ShengjiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


# -- a local judge ---------------------------------------------------------------------------


def _banking_of(st: GameState) -> Banking:
    d = st.declare
    trump = "n" if d.trump is None else SUIT_TEXT[_SUITS.index(d.trump)]
    major = trump if d.declared else ""
    return Banking(
        banker=d.banker,
        called=d.first_declarer,
        snatched=d.holder if d.counters else None,
        major=major,
    )


def _global(st: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "level": RANK_TEXT[[14, *range(2, 14)].index(st.level)],
        "banking": _banking_of(st).to_json(),
    }
    if st.phase == "play":  # the collectors' points so far, failed throws included
        out["total_score"] = st.trick_points + st.penalties
    return out


def referee(
    seed: int, specs: Sequence[str] = ("heuristic",) * 4, options: RuleOptions | None = None
) -> dict[str, Any]:
    """Play one hand between four Botzone adapters (bots ``specs``, each seeded with 0 as
    ``shengji botzone`` does), the game engine judging every answer. Returns ``{"seed",
    "players", "logs": [4 × {"requests", "responses"}], "result"}``; raises ShengjiError
    when an answer is illegal."""
    opts = options or load_preset("botzone")
    st = new_match(opts, seed)
    order = st.deck_order
    seen: dict[int, int] = {}
    ids = []
    for c in order:
        copy = seen.get(card_id_base(c), 0)
        seen[card_id_base(c)] = copy + 1
        ids.append(card_id_base(c) + 54 * copy)
    logs: list[dict[str, list[Any]]] = [{"requests": [], "responses": []} for _ in range(4)]

    def ask(seat: int, request: dict[str, Any]) -> list[int]:
        logs[seat]["requests"].append(request)
        got = answer(logs[seat], specs[seat], 0, opts)
        logs[seat]["responses"].append(got)
        return got

    total = 4 * opts.hand_size
    for i in range(total):
        seat = (st.start_seat + i) % 4
        request: dict[str, Any] = {"stage": "deal", "deliver": [ids[i]], "global": _global(st)}
        if i < 4:  # each seat's first request: its seat, as Botzone's judge sends it
            request["playerpos"] = seat
        got = ask(seat, request)
        waiting = st.phase == "deal" and st.to_act == seat and st.dealt == i + 1
        if got:
            if not waiting:
                raise ShengjiError(
                    f"seat {seat} showed {got} when no show was open", code=Code.ILLEGAL_DECLARATION
                )
            st, _ = apply(st, seat, Declare(tuple(card_of_id(n) for n in got)))
        elif waiting:
            st, _ = apply(st, seat, Pass())
    banker = st.banker
    assert banker is not None and st.phase == "bury"
    kitty = ids[total:]
    got = ask(banker, {"stage": "cover", "deliver": kitty, "global": _global(st)})
    st, _ = apply(st, banker, Bury(tuple(card_of_id(n) for n in got)))
    prev: list[list[int]] = []
    cur: list[list[int]] = []
    prev_leader = cur_leader = banker
    while st.phase == "play":
        who = st.to_act
        assert who is not None
        history = [prev, cur, prev_leader, cur_leader]
        got = ask(
            who,
            {"stage": "play", "history": json.loads(json.dumps(history)), "global": _global(st)},
        )
        before = len(st.tricks)
        st, _ = apply(st, who, Play(tuple(card_of_id(n) for n in got)))
        play = st.tricks[-1].plays[-1] if len(st.tricks) > before else st.trick[-1]
        used = got if play.attempted is None else ids_for(play.cards, got)
        cur = [*cur, used]
        if len(st.tricks) > before:
            prev, prev_leader, cur, cur_leader = cur, cur_leader, [], st.tricks[-1].winner
    result = st.results[-1]
    return {
        "seed": seed,
        "players": list(specs),
        "logs": logs,
        "result": {
            "banker": result.banker,
            "trump": result.trump,
            "points": result.points,
            "kitty_multiplier": result.kitty_multiplier,
            "penalties": result.penalties,
            "side": result.outcome.side,
            "gain": result.outcome.gain,
        },
    }


if __name__ == "__main__":  # pragma: no cover - python -m shengji.tools.botzone
    sys.exit(main())
