"""Rule options (RULES.md §9) as one frozen, typed value, with validation and overrides.

>>> from shengji.rules.presets import load_preset
>>> opts = load_preset("shuangkou")
>>> opts.constant_twos, opts.start_level, opts.must_play_levels
(True, 3, (3, 5, 10, 11, 13, 14))
>>> opts.with_overrides({"j_hook": "false"}).j_hook
False
>>> opts.with_overrides({"decks": 7})
Traceback (most recent call last):
...
shengji.errors.OptionError: BAD_OPTION_VALUE: option 'decks' must be an integer 1..4, not 7
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

from ..errors import CardError, Code, OptionError
from .cards import kitty_size, parse_rank, rank_text

if TYPE_CHECKING:
    from pathlib import Path

KittyMultiplier = Literal["linear", "doubling", "widest", "card_count", "all_cards"]
ThrowPenalty = Literal["none", "per_card", "per_attempt", "stake", "flat_per_card"]
LevelTable = Literal[
    "standard",
    "super",
    "classic",
    "classic-1deck",
    "classic-3deck",
    "classic-1deck-45",
    "shuangkou",
    "botzone",
    "standard-fixed",
]
MatchEnd = Literal["defend_ace", "reach_ace", "wrap"]
NoDeclaration = Literal["kitty_card_3", "kitty_card_4", "no_trump", "redeal"]
Declaring = Literal["shuangsheng", "shuangkou", "classic", "tuolaji", "botzone", "count", "ladder"]
ThrowForced = Literal["unit", "single", "smallest"]
ThrowPenaltySide = Literal["final", "thrown"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "kitty_multiplier": get_args(KittyMultiplier),
    "throw_penalty": get_args(ThrowPenalty),
    "level_table": get_args(LevelTable),
    "match_end": get_args(MatchEnd),
    "no_declaration": get_args(NoDeclaration),
    "declaring": get_args(Declaring),
    "throw_forced": get_args(ThrowForced),
    "throw_penalty_side": get_args(ThrowPenaltySide),
}


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule option of the rule book, plus the project's own decisions (docs/rules.md).

    Levels are stored as integers 2..14; text forms (``"J"``) are accepted on input.
    """

    name: str = "custom"
    decks: int = 2
    start_level: int = 2
    constant_twos: bool = False
    joker_links_level: bool = True
    kitty_multiplier: KittyMultiplier = "doubling"
    throw_penalty: ThrowPenalty = "none"
    level_table: LevelTable = "standard"
    max_gain: int | None = None
    must_play_levels: tuple[int, ...] = ()
    j_hook: bool = False
    match_end: MatchEnd = "reach_ace"
    no_declaration: NoDeclaration = "redeal"
    counter_takes_banker: bool = False
    #: Project option: which declaring system of RULES.md §7 is used.
    declaring: Declaring = "tuolaji"
    #: Project option: hands in a match that never ends by levels (``wrap``); None = no limit.
    match_hands: int | None = None
    #: Coins (金币, seed 000) are settled after each hand.
    coins: bool = False
    #: Coins a hand is played for (底金).
    base_stake: int = 100
    #: The stake doubles with each counter-declaration (反主金币翻番, seed 000's super version).
    stake_doubling: bool = False
    #: Level cards (and constant 2s) link in tractors; false: among trumps only the plain
    #: trump-suit cards and the joker pair (LJ LJ BJ BJ) link.
    level_cards_link: bool = True
    #: What a failed throw plays: the lowest beaten unit of the largest kind, or
    #: ``single``: one card, the lowest card of the beaten unit with the lowest top.
    throw_forced: ThrowForced = "unit"
    #: Every hand is played at this level whatever the teams' levels; None = the banker's.
    fixed_level: int | None = None
    #: Seats at the table: 4, or 5..8 with ``friends``.
    players: int = 4
    #: 找朋友: no fixed partnerships; after burying, the banker calls friend cards and
    #: whoever plays one joins the banker's side; every player has their own level.
    friends: bool = False
    #: 找朋友: how many friends the banker calls; None = as many as keep the banker's
    #: side no larger than the other (one fewer than half the players).
    friend_calls: int | None = None
    #: 找朋友: whose side a failed throw's point penalty counts for: ``final`` the side the
    #: thrower is on at the end of the hand, ``thrown`` the side known when throwing.
    throw_penalty_side: ThrowPenaltySide = "final"
    #: 找朋友: levels a winning banker's side gains on top when it ended smaller than the
    #: banker and every friend called (a call unanswered or answered by the side).
    small_side_bonus: int = 0
    #: 找朋友: cards of the trump suit may be called (jokers, level cards and constant 2s
    #: never may).
    call_trump_suit: bool = True
    #: 找朋友 with ``defend_ace``: a friend at A whose side wins passes A (wins the match)
    #: as the banker does.
    friend_passes_ace: bool = False
    #: A follower without a tractor as long as the led one must play the longest shorter
    #: tractor (of the lead's width) it holds before loose pairs.
    follow_shorter_tractor: bool = False
    #: A hand whose trumps are all plain trump-suit cards no higher than this rank (no
    #: joker, level card or trump 2) is redealt (完全造反); None = never.
    weak_redeal: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, _coerce(f.name, getattr(self, f.name)))
        _check_together(self)

    @property
    def kitty_size(self) -> int:
        """Number of kitty cards: for four players by the deck count (§7); otherwise the
        fewest, at least 5, that leave every player the same number of cards."""
        if self.players == 4:
            return kitty_size(self.decks)
        k = 54 * self.decks % self.players
        while k < 5:
            k += self.players
        return k

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return (54 * self.decks - self.kitty_size) // self.players

    @property
    def calls(self) -> int:
        """Friend calls the banker makes (0: fixed partnerships)."""
        if not self.friends:
            return 0
        if self.friend_calls is not None:
            return self.friend_calls
        return self.players // 2 - 1

    @property
    def total_points(self) -> int:
        """Points in the cards: 100 per deck."""
        return 100 * self.decks

    def with_overrides(self, overrides: Mapping[str, Any]) -> RuleOptions:
        """A copy with options replaced; unknown names or bad values raise OptionError."""
        known = {f.name for f in fields(self)}
        for key in overrides:
            if key not in known:
                raise OptionError(
                    f"unknown option {key!r}; known options: {', '.join(sorted(known))}",
                    code=Code.UNKNOWN_OPTION,
                )
        changes = dict(overrides)
        if "players" in changes and "decks" not in changes and self.friends:
            # 找朋友: one deck per two players unless the decks are set too
            changes["decks"] = _int("players", changes["players"], 4, 8) // 2
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Options as plain JSON/TOML-friendly values (levels as rank text)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "start_level":
                v = rank_text(v)
            elif f.name == "must_play_levels":
                v = [rank_text(r) for r in v]
            out[f.name] = v
        return out


def _check_together(o: RuleOptions) -> None:
    """The rules between options (找朋友's needs)."""

    def bad(text: str) -> OptionError:
        return OptionError(text, code=Code.BAD_OPTION_VALUE)

    if not o.friends:
        if o.players != 4:
            raise bad(f"{o.players} players need friends = true (找朋友): fixed partnerships are 4")
        changed = [
            name
            for name, value, default in (
                ("small_side_bonus", o.small_side_bonus, 0),
                ("call_trump_suit", o.call_trump_suit, True),
                ("friend_passes_ace", o.friend_passes_ace, False),
            )
            if value != default
        ]
        if changed:
            raise bad(
                f"option {changed[0]!r} is a 找朋友 rule: it needs friends = true (fixed "
                "partnerships have no friends to call)"
            )
        return
    if o.coins or o.throw_penalty == "stake":
        raise bad(
            "找朋友 (friends) is not played for coins: coins and throw_penalty = stake need "
            "fixed partnerships"
        )
    if o.j_hook:
        raise bad("找朋友 (friends) has no J hook (钩底): j_hook needs fixed partnerships")
    most = o.players // 2 - 1
    if o.friend_calls is not None and o.friend_calls > most:
        raise bad(
            f"option 'friend_calls' must be at most {most} with {o.players} players (the "
            "banker's side may not outnumber the other)"
        )


def _bad(name: str, what: str, value: Any, **params: Any) -> OptionError:
    return OptionError(
        f"option {name!r} must be {what}, not {value!r}",
        code=Code.BAD_OPTION_VALUE,
        params={"option": name, "value": str(value), **params},
    )


def _bool(name: str, v: Any) -> bool:
    if isinstance(v, bool):
        return v
    word = v.strip().lower() if isinstance(v, str) else None
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0"):
        return False
    raise _bad(name, "true or false", v)


def _int(name: str, v: Any, lo: int, hi: int | None) -> int:
    if isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            raise _bad(name, "an integer", v) from None
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise _bad(name, f"an integer {rng}", v, low=lo, high=hi)
    return int(v)


def _level(name: str, v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 14:
        return v
    try:
        return parse_rank(str(v))
    except CardError:
        raise _bad(name, "a level rank (2..10, J, Q, K, A)", v) from None


def _optional_int(name: str, v: Any, lo: int) -> int | None:
    if v is None or (isinstance(v, str) and v.strip().lower() in ("null", "none", "")):
        return None
    return _int(name, v, lo, None)


def _coerce(name: str, v: Any) -> Any:
    if name == "name":
        if not isinstance(v, str) or not v:
            raise _bad(name, "a non-empty string", v)
        return v
    if name == "decks":
        return _int(name, v, 1, 4)
    if name == "start_level":
        return _level(name, v)
    if name in (
        "constant_twos",
        "joker_links_level",
        "j_hook",
        "counter_takes_banker",
        "coins",
        "stake_doubling",
        "call_trump_suit",
        "friend_passes_ace",
        "follow_shorter_tractor",
    ):
        return _bool(name, v)
    if name in ("max_gain", "match_hands"):
        return _optional_int(name, v, 1)
    if name == "base_stake":
        return _int(name, v, 0, None)
    if name == "must_play_levels":
        if isinstance(v, str):
            v = v.replace(",", " ").split()
        if not isinstance(v, list | tuple):
            raise _bad(name, "a list of level ranks", v)
        return tuple(sorted({_level(name, r) for r in v}))
    if name in ("level_cards_link", "friends"):
        return _bool(name, v)
    if name == "players":
        return _int(name, v, 4, 8)
    if name == "friend_calls":
        none = v is None or (isinstance(v, str) and v.strip().lower() in ("null", "none", ""))
        return None if none else _int(name, v, 1, 7)
    if name in ("fixed_level", "weak_redeal"):
        none = v is None or (isinstance(v, str) and v.strip().lower() in ("null", "none", ""))
        return None if none else _level(name, v)
    if name == "small_side_bonus":
        return _int(name, v, 0, 3)
    if name in _CHOICES:
        if v not in _CHOICES[name]:
            raise _bad(name, "one of " + ", ".join(_CHOICES[name]), v)
        return v
    raise OptionError(f"unknown option {name!r}", code=Code.UNKNOWN_OPTION)  # pragma: no cover


def parse_override(text: str) -> tuple[str, Any]:
    """Parse one ``key=value`` override (value as TOML if it parses, else as text)."""
    if "=" not in text:
        raise OptionError(f"override {text!r} must look like key=value", code=Code.BAD_OPTION_VALUE)
    import tomllib

    key, raw = (s.strip() for s in text.split("=", 1))
    try:
        value: Any = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, value


def load_overrides_file(path: str | Path) -> dict[str, Any]:
    """Read overrides from a TOML file (top-level ``key = value`` lines)."""
    import tomllib
    from pathlib import Path

    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise OptionError(f"cannot read {p}: {e.strerror}", code=Code.BAD_OPTION_VALUE) from None
    except UnicodeDecodeError:
        raise OptionError(f"{p} is not UTF-8 text", code=Code.BAD_OPTION_VALUE) from None
    except tomllib.TOMLDecodeError as e:
        raise OptionError(f"{p} is not valid TOML: {e}", code=Code.BAD_OPTION_VALUE) from None
    table = data.get("options", data)
    if not isinstance(table, dict):
        raise OptionError(
            f"{p}: 'options' must be a table of key = value lines", code=Code.BAD_OPTION_VALUE
        )
    return dict(table)
