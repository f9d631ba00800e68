"""The bot protocol (docs/bot-protocol.md): JSON lines between a host (``simulate``, the
server) and a bot program, and ``shengji bot``, the reference bot that speaks it.

A host sends what one seat may see, nothing else: the ``act`` request carries
``SeatView.to_json()`` (the ``view`` a web client gets) and an ``exact`` part holding what
that JSON shows sorted or rounded for people (the hand in its own order, the declaring
state, the whole score sheet), so that :func:`view_from_act` rebuilds the very
:class:`~shengji.game.views.SeatView` the host had.

>>> from shengji.game import new_match
>>> from shengji.rules.presets import load_preset
>>> from shengji.game.views import seat_view
>>> st = new_match(load_preset("classic-1deck"), seed=3)
>>> view = seat_view(st, st.to_act)
>>> msg = act_message(7, view, 5.0)
>>> sorted(msg), view_from_act(view.options, msg) == view
(['exact', 'id', 'shows', 'time_limit', 'type', 'view'], True)
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from ..errors import Code, ShengjiError
from ..game.actions import action_to_json
from ..game.legal import legal_shows
from ..game.state import HandResult, Trick, TrickPlay
from ..game.views import SeatView
from ..rules.cards import Suit, format_cards, parse_cards, parse_rank
from ..rules.declaring import DeclareState
from ..rules.follow import follow_families
from ..rules.friends import CalledFriend, callable_cards, parse_call
from ..rules.leads import unit_leads
from ..rules.options import RuleOptions
from ..rules.phases import DECLARING_PHASES
from ..rules.scoring import HandOutcome
from ..rules.trump import trump_context
from ..rules.units import classify_lead

#: The protocol version this module speaks.
PROTOCOL = 1

#: Phases in which the seat to act may declare (the ``act`` request lists its ``shows``).


def encode(msg: dict[str, Any]) -> str:
    """One protocol line (compact JSON, ``\\n``-terminated)."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n"


# -- the host's messages ----------------------------------------------------------------------


def hello_message(time_limit: float) -> dict[str, Any]:
    """The host's first line."""
    return {"type": "hello", "protocol": PROTOCOL, "time_limit": time_limit}


def game_message(
    options: RuleOptions, seat: int, seed: int, bot_options: dict[str, str]
) -> dict[str, Any]:
    """A new match for the bot's seat: the rules, the seat, a seed for the bot's own
    choices (never the deal's seed) and the values of options the bot declared."""
    return {
        "type": "game",
        "seat": seat,
        "seed": seed,
        "preset": options.name,
        "rules": options.to_dict(),
        "kitty_size": options.kitty_size,
        "options": dict(bot_options),
    }


def act_message(request: int, view: SeatView, time_limit: float) -> dict[str, Any]:
    """A request to act now: the seat's view (exactly what a web client gets, plus the
    ``exact`` part) and what is legal: when it may declare (in a table's paced deal, when
    a card reached it: ``pass`` is "not now"), the ``shows`` it may make; at
    a burial, the ``kitty_size``; calling friends (找朋友), how many ``calls``, the
    ``callable`` cards and the ``decks`` (an ordinal is 1..decks); leading, every
    one-unit lead (``leads``: a throw, any other cards of one suit, may be attempted
    too); following, the legal follows as ``follows`` families: ``fixed`` plus any
    ``free`` distinct cards of ``pool``."""
    msg: dict[str, Any] = {
        "type": "act",
        "id": request,
        "time_limit": time_limit,
        "view": view.to_json(),
        "exact": exact_json(view),
    }
    if view.seat is None:
        return msg
    if view.phase == "deal":  # asked at a draw, or in a paced deal at any card: show or not
        msg["shows"] = [format_cards(s) for s in legal_shows(view, view.seat)]
    elif view.to_act != view.seat:
        return msg
    elif view.phase in DECLARING_PHASES:
        msg["shows"] = [format_cards(s) for s in legal_shows(view, view.seat)]
    elif view.phase == "bury":
        msg["kitty_size"] = view.options.kitty_size
    elif view.phase == "call":
        msg["calls"] = view.options.calls
        msg["callable"] = format_cards(callable_cards(view.ctx))
        msg["decks"] = view.options.decks
    elif view.phase == "play" and view.trick:
        assert view.lead is not None
        msg["follows"] = [
            {"fixed": format_cards(fixed), "pool": format_cards(pool), "free": free}
            for fixed, pool, free in follow_families(view.ctx, view.lead, view.hand)
        ]
    elif view.phase == "play":
        msg["leads"] = [format_cards(u) for u in unit_leads(view.ctx, view.hand)]
    return msg


def exact_json(view: SeatView) -> dict[str, Any]:
    """What ``view.to_json()`` shows sorted or summed up for people, as the engine has it."""
    d = view.declare
    return {
        "hand": format_cards(view.hand),
        "declare": {
            **{f.name: getattr(d, f.name) for f in dataclasses.fields(d)},
            "trump": None if d.trump is None else d.trump.name,
            "pair_seats": sorted(d.pair_seats),
            "shows": [{"seat": s, "cards": format_cards(c)} for s, c in d.shows],
        },
        "results": [_result_json(r) for r in view.results],
    }


def _result_json(r: HandResult) -> dict[str, Any]:
    out = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)}
    out["outcome"] = dataclasses.asdict(r.outcome)
    out["coins"] = list(r.coins)
    out["kitty"] = format_cards(r.kitty)
    return out


# -- reading a request back into a view -------------------------------------------------------


def view_from_act(options: RuleOptions, msg: dict[str, Any]) -> SeatView:
    """The :class:`SeatView` an ``act`` request was made from (``options`` from the
    ``game`` message). Raises ``ShengjiError`` (``BOT_PROTOCOL``) for a malformed one."""
    try:
        return _view(options, msg["view"], msg["exact"])
    except ShengjiError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ShengjiError(f"malformed act request: {e!r}", code=Code.BOT_PROTOCOL) from None


def _view(options: RuleOptions, v: dict[str, Any], exact: dict[str, Any]) -> SeatView:
    d = exact["declare"]
    declare = DeclareState(
        **{
            **d,
            "trump": None if d["trump"] is None else Suit[d["trump"]],
            "pair_seats": frozenset(d["pair_seats"]),
            "shows": tuple((s["seat"], parse_cards(s["cards"])) for s in d["shows"]),
        }
    )
    level = parse_rank(v["level"])
    ctx = trump_context(options, level, declare.trump)
    trick = tuple(_play(p) for p in v["trick"])
    return SeatView(
        seat=v["seat"],
        options=options,
        ctx=ctx,
        phase=v["phase"],
        hand_number=v["hand_number"],
        levels=tuple(parse_rank(x) for x in v["levels"]),
        level=level,
        declare=declare,
        to_act=v["to_act"],
        hand=parse_cards(exact["hand"]),
        hand_sizes=tuple(v["hand_sizes"]),
        dealt=v["dealt"],
        leader=v["leader"],
        trick=trick,
        lead=classify_lead(ctx, trick[0].cards) if trick else None,
        tricks=tuple(
            Trick(tuple(_play(p) for p in t["plays"]), t["winner"], t["points"])
            for t in v["tricks"]
        ),
        trick_points=v["collector_points"],
        penalties=v["penalties"],
        coins=(v["coins"][0], v["coins"][1]),
        results=tuple(_result(r) for r in exact["results"]),
        kitty_seen=tuple((k["kind"], parse_cards(k["cards"])) for k in v.get("seen_kitty", [])),
        kitty=parse_cards(v["kitty"]) if "kitty" in v else None,
        winner=v["winner"],
        calls=tuple(CalledFriend(parse_call(c["call"]), c["seat"]) for c in v.get("calls", [])),
    )


def _play(p: dict[str, Any]) -> TrickPlay:
    if "attempted" not in p:
        return TrickPlay(p["seat"], parse_cards(p["cards"]))
    return TrickPlay(
        p["seat"],
        parse_cards(p["cards"]),
        parse_cards(p["attempted"]),
        p["blocked_by"],
        p["penalty"],
    )


def _result(r: dict[str, Any]) -> HandResult:
    return HandResult(
        **{
            **r,
            "outcome": HandOutcome(**r["outcome"]),
            "coins": tuple(r["coins"]),
            "kitty": parse_cards(r["kitty"]),
            "banker_side": tuple(r.get("banker_side", ())),
            "climbed": tuple(r.get("climbed", ())),
        }
    )


# -- the reference bot ------------------------------------------------------------------------


def run_bot(spec: str, lines: Iterable[str], out: IO[str], log: IO[str] = sys.stderr) -> int:
    """Speak the protocol as the bot ``spec`` of the registry (``shengji bot``): answer
    ``hello``, start a player on each ``game``, answer each ``act`` with its action;
    return at ``quit`` or at the end of input. Errors are answered with ``error`` lines."""
    from .registry import check_spec, make_player

    check_spec(spec)
    player: Any = None
    options: RuleOptions | None = None

    def send(msg: dict[str, Any]) -> None:
        out.write(encode(msg))
        out.flush()

    for line in lines:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "hello":
                send(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL,
                        "name": spec,
                        "options": [
                            {
                                "name": "player",
                                "default": spec,
                                "help": "the bot of the registry that plays (shengji bots)",
                            }
                        ],
                    }
                )
            elif kind == "game":
                options = RuleOptions(**msg["rules"])
                chosen = check_spec(msg.get("options", {}).get("player", spec))
                player = make_player(chosen, msg["seat"], msg["seed"])
                send({"type": "ready"})
            elif kind == "act":
                if player is None or options is None:
                    raise ShengjiError("act before game", code=Code.BOT_PROTOCOL)
                action = player.act(view_from_act(options, msg))
                send({"type": "action", "id": msg["id"], "action": action_to_json(action)})
            elif kind == "refused":
                print(f"refused: {msg.get('code')}: {msg.get('message')}", file=log, flush=True)
            elif kind == "quit":
                return 0
            else:
                raise ShengjiError(f"unknown message type {kind!r}", code=Code.BOT_PROTOCOL)
        except (ShengjiError, ValueError, KeyError, TypeError) as e:
            send({"type": "error", "message": str(e)})
    return 0
