"""The Botzone Tractor adapter: recorded Botzone histories replayed turn by turn, every
answer checked against Botzone's rules (the ``botzone`` preset), and the local referee."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from shengji.errors import ShengjiError
from shengji.rules.cards import ALL_CARDS, Card, format_cards
from shengji.rules.follow import check_follow
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext
from shengji.rules.units import classify_lead
from shengji.tools.botzone import (
    KEEP_RUNNING,
    Session,
    answer,
    answer_line,
    card_id_base,
    card_of_id,
    read_input,
    referee,
    seat_view_of,
)
from shengji.tools.cli import main

DATA = Path(__file__).parent / "data" / "botzone"
GAMES = sorted(DATA.glob("game-*.json"))
OPTS = load_preset("botzone")


def _cards(ids: list[int]) -> tuple[Card, ...]:
    return tuple(card_of_id(n) for n in ids)


def _held(data: dict[str, Any]) -> tuple[int | None, list[int]]:
    """The test's own reading of a Botzone input: this seat (from a play request) and the
    ids it holds now (dealt and kitty, less what it buried and played)."""
    held: list[int] = []
    seat = None
    reqs, resps = data["requests"], data["responses"]
    for i, req in enumerate(reqs):
        if req["stage"] in ("deal", "cover"):
            held += req["deliver"]
        if req["stage"] == "cover" and i < len(reqs) - 1:
            for n in resps[i]:
                held.remove(n)
        if req["stage"] == "play":
            h = req["history"]
            seat = (h[3] + len(h[1])) % 4
            if h[0]:
                for n in h[0][(seat - h[2]) % 4]:
                    held.remove(n)
    return seat, held


def check_legal(data: dict[str, Any], got: list[int]) -> None:
    """Fail unless ``got`` is a legal Botzone answer to the input's last request."""
    req = data["requests"][-1]
    seat, held = _held(data)
    assert len(set(got)) == len(got) and not Counter(got) - Counter(held), (got, held)
    banking = req["global"]["banking"]
    if req["stage"] == "deal":
        cards = _cards(got)
        if not got:
            return
        assert got[0] == req["deliver"][0]
        if banking["called"] == -1:
            assert len(got) == 1 and cards[0].rank == 2
        else:
            assert banking["snatched"] == -1 and len(got) == 2 and cards[0] is cards[1]
            assert cards[0].rank == 2 or cards[0].is_joker
        return
    if req["stage"] == "cover":
        assert len(got) == 8
        return
    trump = "NT" if banking["major"] == "n" else banking["major"].upper()
    ctx = TrumpContext(OPTS, req["global"]["level"], trump)
    h = req["history"]
    if h[1]:
        check_follow(ctx, _cards(h[1][0]), _cards(held), _cards(got))
    else:
        classify_lead(ctx, _cards(got))  # one effective suit, or MIXED_SUITS


def _prefix(log: dict[str, Any], i: int) -> dict[str, Any]:
    return {"requests": log["requests"][: i + 1], "responses": log["responses"][:i]}


def test_card_ids() -> None:
    assert [card_of_id(n).text for n in (0, 1, 2, 3, 36, 39, 51, 52, 53)] == [
        "SA", "HA", "CA", "DA", "S10", "D10", "DK", "LJ", "BJ"
    ]  # fmt: skip
    assert card_of_id(54 + 40) is card_of_id(40)
    assert sorted(card_id_base(c) for c in ALL_CARDS) == list(range(54))
    with pytest.raises(ShengjiError) as e:
        card_of_id(108)
    assert e.value.code == "BAD_MESSAGE"


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_recorded_games_were_legal(path: Path) -> None:
    game = json.loads(path.read_text(encoding="utf-8"))
    stages: Counter[str] = Counter()
    for log in game["logs"]:
        assert len(log["requests"]) == len(log["responses"])
        for i, got in enumerate(log["responses"]):
            check_legal(_prefix(log, i), got)
            stages[log["requests"][i]["stage"]] += 1
    # every card dealt once, one cover by the banker, 100 cards played (more answered
    # where a throw failed and only one card of it was played)
    assert stages["deal"] == 100 and stages["cover"] == 1
    answered = sum(
        len(got)
        for log in game["logs"]
        for req, got in zip(log["requests"], log["responses"], strict=True)
        if req["stage"] == "play"
    )
    assert answered == 100 if game["result"]["penalties"] == 0 else answered > 100
    last = game["logs"][0]["requests"][-1]["global"]["banking"]
    assert last["banker"] == game["result"]["banker"]
    assert (last["major"].upper() if last["major"] != "n" else "NT") == game["result"]["trump"]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
@pytest.mark.parametrize("spec", ["heuristic", "random"])
def test_adapter_answers_every_stage_of_a_recorded_game_legally(path: Path, spec: str) -> None:
    game = json.loads(path.read_text(encoding="utf-8"))
    for log in game["logs"]:
        for i in range(len(log["requests"])):
            data = _prefix(log, i)
            check_legal(data, answer(data, spec, seed=i))


@pytest.mark.parametrize("path", GAMES[:1], ids=lambda p: p.stem)
def test_the_view_holds_only_what_the_requests_give(path: Path) -> None:
    log = json.loads(path.read_text(encoding="utf-8"))["logs"][0]
    for i, req in enumerate(log["requests"]):
        data = _prefix(log, i)
        seat, held = _held(data)
        view = seat_view_of(read_input(data), OPTS)
        assert format_cards(sorted(view.hand)) == format_cards(sorted(_cards(held)))
        if req["stage"] == "play":
            assert seat is not None and view.seat == seat
            with pytest.raises(ShengjiError) as e:
                view.hand_of((seat + 1) % 4)
            assert e.value.code == "HIDDEN"


def test_hand_written_follow_must_play_the_pair() -> None:
    data = json.loads((DATA / "handwritten-follow-pair.json").read_text(encoding="utf-8"))
    k = read_input(data)
    assert (k.stage, k.seat, k.banking.trump, len(k.held), k.level) == ("play", 1, 0, 25, 2)
    tens = json.loads(json.dumps(data).replace('"level": "2"', '"level": "10"'))
    assert read_input(tens).level == 10
    for spec in ("heuristic", "random"):
        got = answer(data, spec)
        assert sorted(got) == [17, 71]  # H5 H5: the only heart pair
        check_legal(data, got)


def test_hand_written_banker_history() -> None:
    data = json.loads((DATA / "handwritten-banker.json").read_text(encoding="utf-8"))
    k = read_input(data)
    assert (k.seat, k.banking.banker, k.banking.called, k.banking.snatched) == (2, 2, 3, 2)
    assert len(k.held) == 24 and len(k.tricks) == 1 and k.tricks[0].winner == 0
    assert [p.seat for p in k.trick] == [0, 1]
    view = seat_view_of(k, OPTS)
    seen = [(kind, len(cards)) for kind, cards in view.kitty_seen]
    assert seen == [("picked_up", 8), ("buried", 8)]
    assert (view.trick_points, view.penalties) == (0, 0)
    scored = json.loads(json.dumps(data))
    scored["requests"][-1]["global"]["total_score"] = 20  # a failed throw of the banker side
    assert seat_view_of(read_input(scored), OPTS).penalties == 20
    for spec in ("heuristic", "random"):
        assert answer(data, spec) == [1]  # HA: the only heart left
    for i in range(len(data["requests"]) - 1):
        check_legal(_prefix(data, i), data["responses"][i])
        check_legal(_prefix(data, i), answer(_prefix(data, i)))


def test_deal_answers_only_with_the_card_just_dealt() -> None:
    glob = {"level": "2", "banking": {"banker": -1, "called": -1, "snatched": -1, "major": ""}}
    requests = [
        {"stage": "deal", "deliver": [4], "global": glob},
        {"stage": "deal", "deliver": [9], "global": glob},
    ]
    assert answer({"requests": requests, "responses": [[]]}) == []  # S2 held, H3 just dealt
    first = {"requests": requests[:1], "responses": []}
    assert answer(first) == [4]


def test_referee_plays_a_legal_hand() -> None:
    game = referee(5, ["heuristic", "random", "heuristic", "random"])
    assert [len(log["requests"]) >= 25 for log in game["logs"]] == [True] * 4
    r = game["result"]
    assert r["side"] in ("banker", "collectors") and 0 <= r["gain"] <= 3
    for log in game["logs"]:
        for i, got in enumerate(log["responses"]):
            check_legal(_prefix(log, i), got)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"requests": []},
        {"requests": [{"stage": "bid"}], "responses": []},
        {"requests": [{"stage": "deal", "deliver": [1]}, {"stage": "deal", "deliver": [2]}]},
        {"requests": [{"stage": "deal", "deliver": [200]}], "responses": []},
        {"requests": [{"stage": "play", "history": [[], []]}], "responses": []},
        {"requests": [{"stage": "play", "history": [[], [], 0, 9]}], "responses": []},
        {
            "requests": [{"stage": "deal", "deliver": [1], "global": {"banking": {"major": "x"}}}],
            "responses": [],
        },
    ],
)
def test_bad_input(data: Any) -> None:
    with pytest.raises(ShengjiError) as e:
        read_input(data)
    assert e.value.code == "BAD_MESSAGE"


# -- the seat the judge tells (playerpos) and impossible histories -------------------------

HEARTS = [1, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49]  # ♥A, ♥3 … ♥K (ids)
CLUBS = [2, 10, 14, 18, 22, 26, 30, 34, 38, 42]


def _deal(ids: list[int], called: int = -1, major: str = "", **extra: Any) -> dict[str, Any]:
    banking = {"banker": -1, "called": called, "snatched": -1, "major": major}
    return {"stage": "deal", "deliver": ids, "global": {"level": "2", "banking": banking}} | extra


def _partner_called(playerpos: int | None) -> dict[str, Any]:
    """Seat 2 got 2 hearts and 10 clubs; seat 0 (its partner) calls spades; seat 2 then
    holds the pair ♥2 ♥2 and may override."""
    cards = HEARTS[:2] + CLUBS
    first = _deal([cards[0]])
    if playerpos is not None:
        first["playerpos"] = playerpos
    reqs = [first, *(_deal([c]) for c in cards[1:])]
    reqs += [_deal([5], called=0, major="s"), _deal([59], called=0, major="s")]
    return {"requests": reqs, "responses": [[] for _ in reqs[:-1]]}


def test_the_bot_plays_from_the_seat_the_judge_tells_it() -> None:
    told = _partner_called(2)
    assert read_input(told).seat == 2
    assert answer(told) == []  # no override of its partner for a weak suit
    guessed = _partner_called(None)  # without playerpos the caller's next seat was assumed
    assert read_input(guessed).seat is None and answer(guessed) == [59, 5]
    in_global = _partner_called(None)
    in_global["requests"][0]["global"]["playerpos"] = 3
    assert read_input(in_global).seat == 3


def test_referee_tells_each_seat_its_position() -> None:
    game = referee(3)
    for seat, log in enumerate(game["logs"]):
        assert log["requests"][0]["playerpos"] == seat
        assert all("playerpos" not in r for r in log["requests"][1:])


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"requests": [_deal([7]), _deal([7])], "responses": [[]]}, "dealt twice"),
        ({"requests": [_deal([7, 7])], "responses": []}, "dealt twice"),
        ({"requests": [_deal([7], playerpos=5)], "responses": []}, "playerpos"),
        (
            {"requests": [_deal([7], playerpos=1), _deal([8], playerpos=2)], "responses": [[]]},
            "changed",
        ),
        (
            {
                "requests": [
                    _deal([7], playerpos=1),
                    {"stage": "play", "history": [[], [], 0, 0], "global": {"level": "2"}},
                ],
                "responses": [[]],
            },
            "asks seat 0",
        ),
        (
            {
                "requests": [{"stage": "play", "history": [[], [], 0, 0], "global": {}}],
                "responses": [],
            },
            "after 0 of its 25 cards",
        ),
    ],
)
def test_impossible_histories_are_refused(data: Any, why: str) -> None:
    with pytest.raises(ShengjiError) as e:
        read_input(data)
    assert e.value.code == "BAD_MESSAGE" and why in e.value.message


def test_cli_answers_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    line = (DATA / "handwritten-banker.json").read_text(encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(line))
    assert main(["botzone", "--player", "random"]) == 0
    assert json.loads(capsys.readouterr().out) == {"response": [1]}
    assert answer_line(line) == '{"response":[1]}'
    monkeypatch.setattr("sys.stdin", io.StringIO("not json\n"))
    assert main(["botzone"]) == 2


def test_cli_referee_writes_the_histories(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "game.json"
    assert main(["botzone", "--referee", "6", "--record", str(out)]) == 0
    game = json.loads(out.read_text(encoding="utf-8"))
    assert game["players"] == ["heuristic"] * 4 and len(game["logs"]) == 4
    assert json.loads(capsys.readouterr().out) == game["result"]
    assert main(["botzone", "--referee", "6", "--players", "random,random"]) == 2


def test_botzone_preset_plays_every_hand_at_level_2() -> None:
    from shengji.bots.registry import make_player
    from shengji.game.players import run_match

    players = [make_player("heuristic", s, 1) for s in range(4)]
    st, _ = run_match(OPTS, 3, players, max_hands=3)
    assert [r.level for r in st.results] == [2, 2, 2]
    assert st.levels != (2, 2)  # the teams' levels still count the hands won
    assert all(r.outcome.gain <= 3 for r in st.results)


def test_fixed_level_option_values() -> None:
    assert load_preset("tuolaji").fixed_level is None
    assert load_preset("tuolaji", {"fixed_level": "J"}).fixed_level == 11
    assert load_preset("botzone", {"fixed_level": "none"}).fixed_level is None
    with pytest.raises(ShengjiError) as e:
        load_preset("botzone", {"fixed_level": "1"})
    assert e.value.code == "BAD_OPTION_VALUE"


ENTRIES = {"cli": ["shengji.tools.cli", "botzone"], "module": ["shengji.tools.botzone"]}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize("seat", range(4))
def test_keep_running_answers_a_whole_game_as_the_whole_inputs_would(entry: str, seat: int) -> None:
    import subprocess
    import sys

    game = referee(4)
    log = game["logs"][seat]
    first = json.dumps({"requests": log["requests"][:1], "responses": []})
    lines = [first, *(json.dumps(r) for r in log["requests"][1:])]
    run = subprocess.run(
        [sys.executable, "-m", *ENTRIES[entry], "--keep-running"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    out = run.stdout.splitlines()
    assert out[1::2] == [KEEP_RUNNING] * len(lines)
    assert [json.loads(x)["response"] for x in out[0::2]] == log["responses"]
    stages = {r["stage"] for r in log["requests"]}
    assert stages == (
        {"deal", "cover", "play"} if seat == game["result"]["banker"] else {"deal", "play"}
    )


def test_the_module_entry_answers_one_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from shengji.tools.botzone import main as bot_main

    line = (DATA / "handwritten-banker.json").read_text(encoding="utf-8")
    for argv in ([], ["--player", "random", "--seed", "3"], ["--player=random", "--seed=-1"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(line))
        assert bot_main(argv) == 0
        assert json.loads(capsys.readouterr().out) == {"response": [1]}
    for argv in (["--seed", "x"], ["--player"], ["--referee", "3"], ["--keep-running=yes"]):
        assert bot_main(argv) == 2
        assert "usage: python -m shengji.tools.botzone" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("not json\n"))
    assert bot_main([]) == 2
    assert "BAD_MESSAGE" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(line))
    assert bot_main(["--player", "nobody"]) == 2
    assert "UNKNOWN_BOT" in capsys.readouterr().err


def test_a_session_starts_with_a_whole_input() -> None:
    with pytest.raises(ShengjiError) as e:
        Session().turn(json.dumps({"stage": "deal", "deliver": [4]}))
    assert e.value.code == "BAD_MESSAGE"


def _play(history: list[Any], **extra: Any) -> dict[str, Any]:
    banking = {"banker": 0, "called": 0, "snatched": -1, "major": "s"}
    glob = {"level": "2", "banking": banking, "total_score": 0}
    return {"stage": "play", "history": history, "global": glob} | extra


def _dealt_25(first_extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """25 deal requests to seat 1: ids 54..78 (second copies)."""
    reqs = [_deal([54 + i]) for i in range(25)]
    reqs[0] |= first_extra or {"playerpos": 1}
    return reqs


def _history(*requests: dict[str, Any]) -> dict[str, Any]:
    reqs = [*_dealt_25(), *requests]
    return {"requests": reqs, "responses": [[] for _ in reqs[:-1]]}


def test_a_possible_play_history_is_read() -> None:
    k = read_input(_history(_play([[], [[0]], 0, 0])))
    assert (k.seat, len(k.held), [p.seat for p in k.trick]) == (1, 25, [0])


@pytest.mark.parametrize(
    ("data", "why"),
    [
        # another seat plays a card this seat was dealt (and still holds)
        (_history(_play([[], [[54]], 0, 0])), "this seat holds"),
        # the same card in two tricks
        (
            {
                "requests": [
                    *_dealt_25(),
                    _play([[], [[0]], 0, 0]),
                    _play([[[0], [54], [2], [3]], [[0]], 0, 0]),
                ],
                "responses": [*([[]] * 25), [54]],
            },
            "played twice",
        ),
        # the same card twice in one trick
        (_history(_play([[], [[5, 5]], 0, 0])), "played twice"),
        # a follow of another length than the lead
        (_history(_play([[], [[0, 4], [1, 5, 9]], 3, 3])), "as many cards as the lead"),
        # a 26th card dealt to one seat
        ({"requests": [*_dealt_25(), _deal([0])], "responses": [[]] * 25}, "more than 25"),
        # asked to play before the deal is over
        (
            {"requests": [_deal([54], playerpos=1), _play([[], [[0]], 0, 0])], "responses": [[]]},
            "1 of its 25 cards",
        ),
        # a deal request after the play began
        (
            {
                "requests": [*_dealt_25(), _play([[], [[0]], 0, 0]), _deal([1])],
                "responses": [*([[]] * 25), [54]],
            },
            "deal request after the play stage",
        ),
        # a kitty of 7 cards
        (
            {
                "requests": [
                    *_dealt_25({"playerpos": 0}),
                    {
                        "stage": "cover",
                        "deliver": [0, 1, 2, 3, 4, 5, 6],
                        "global": {"level": "2", "banking": {"banker": 0, "major": "s"}},
                    },
                ],
                "responses": [[]] * 25,
            },
            "8 kitty cards",
        ),
        # a show of a card the bot does not hold, in its own earlier answer
        ({"requests": [_deal([54], playerpos=1), _deal([55])], "responses": [[4]]}, "not hold"),
    ],
)
def test_more_impossible_histories_are_refused(data: Any, why: str) -> None:
    with pytest.raises(ShengjiError) as e:
        read_input(data)
    assert e.value.code == "BAD_MESSAGE" and why in e.value.message, e.value.message


def test_an_empty_hand_asked_to_play_is_refused() -> None:
    """Seat 1 plays its 25 cards (ids 54..78) in 25 tricks led by seat 0, then is asked
    to play a 26th time."""
    plays = []
    for j in range(26):
        prev = [[j - 1], [53 + j], [25 + j], [78 + j]] if j else []
        plays.append(_play([prev, [[j]], 0, 0]))
    data: dict[str, list[Any]] = {
        "requests": [*_dealt_25(), *plays],
        "responses": [*([[]] * 25), *([54 + j] for j in range(25))],
    }
    with pytest.raises(ShengjiError) as e:
        read_input(data)
    assert e.value.code == "BAD_MESSAGE" and "no cards left" in e.value.message
    data["requests"].pop()
    data["responses"].pop()
    assert read_input(data).held == (78,)


# -- a cold turn: Botzone starts the bot once per turn ---------------------------------------

#: Modules a turn does not need; each used to be imported by every turn (the registry's
#: other bots, the engine's rollout and match layers, the terminal's texts, the version's
#: metadata, the presets' resource reader and TOML parser, argparse's terminal width). The
#: kernel's core is needed: the rules API answers from it (and ``hashlib`` checks that the
#: compiled core is not stale).
UNNEEDED = {
    "shengji.bots.search",
    "shengji.bots.belief",
    "shengji.bots.random_bot",
    "shengji.bots.heuristic_v1",
    "shengji.engine.rollout",
    "shengji.engine.match",
    "shengji.game.players",
    "shengji.game.record",
    "shengji.words.i18n",
    "shengji.words.option_help",
    "importlib.metadata",
    "importlib.resources",
    "pathlib",
    "shutil",
    "zipfile",
    "tomllib",
}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize("stage", ["deal", "play"])
def test_a_cold_turn_imports_only_what_its_answer_needs(entry: str, stage: str) -> None:
    import subprocess
    import sys

    if stage == "play":
        line = (DATA / "handwritten-banker.json").read_text(encoding="utf-8")
    else:
        line = json.dumps(_partner_called(2))
    module, *args = ENTRIES[entry]
    code = (
        "import sys\n"
        f"from {module} import main\n"
        f"status = main({args!r})\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], input=line, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["response"] == ([1] if stage == "play" else [])
    loaded = set(run.stderr.split())
    assert "shengji.bots.heuristic" in loaded
    unneeded = UNNEEDED | ({"argparse", "shengji.tools.cli"} if entry == "module" else set())
    assert not loaded & unneeded, sorted(loaded & unneeded)
