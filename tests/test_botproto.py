"""The bot protocol: the view a bot is sent rebuilds the seat's own view exactly, the
reference bot answers it, and ``simulate`` plays external programs, forfeiting the hand of
one that crashes, hangs or answers illegally."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from shengji.bots.botproto import act_message, game_message, run_bot, view_from_act
from shengji.bots.external import BotLimits, BotProcess, ExternalBot, check_command_line_spec
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import random_action
from shengji.errors import ShengjiError
from shengji.game.flow import apply, new_match
from shengji.game.views import seat_view
from shengji.rules.cards import format_cards, parse_cards
from shengji.rules.options import RuleOptions
from shengji.rules.presets import load_preset
from shengji.tools.cli import main
from shengji.tools.simulate import Forfeit, Settings, forfeit_levels, run_jobs
from shengji.tools.tally import summarise

PY = shlex.quote(sys.executable)
#: The reference bot as a command (the installed ``shengji bot`` is the same program).
REFERENCE = f"{PY} -m shengji.tools.cli bot"
BAD_BOT = f"{PY} {shlex.quote(str(Path(__file__).parent / 'bad_bot.py'))}"


@pytest.mark.parametrize(
    ("preset", "seed"), [("shuangsheng", 4), ("classic-3deck", 2), ("zhaopengyou", 3)]
)
def test_every_view_of_a_hand_survives_the_wire(preset: str, seed: int) -> None:
    opts = load_preset(preset)
    rules = RuleOptions(**json.loads(json.dumps(game_message(opts, 0, 1, {})))["rules"])
    st = new_match(opts, seed)
    rng = random.Random(seed)
    checked = 0
    while st.phase != "hand_over":
        seat = st.to_act if st.to_act is not None else 0
        view = seat_view(st, seat)
        wire = json.loads(json.dumps(act_message(checked, view, 1.0)))
        assert view_from_act(rules, wire) == view
        checked += 1
        st, _ = apply(st, seat, random_action(st, seat, rng))
    for seat in range(opts.players):  # the score sheet, the kitty and the finished tricks
        view = seat_view(st, seat)
        assert view_from_act(rules, json.loads(json.dumps(act_message(0, view, 1.0)))) == view
    assert checked > 50


def test_the_banker_is_told_what_it_may_call() -> None:
    opts = load_preset("zhaopengyou", {"players": 5})
    st = new_match(opts, 2)
    rng = random.Random(2)
    while st.phase != "call":
        seat = st.to_act
        assert seat is not None
        st, _ = apply(st, seat, random_action(st, seat, rng))
    msg = act_message(7, seat_view(st, st.banker), 1.0)
    assert (msg["calls"], msg["decks"]) == (1, 2)
    assert "BJ" not in msg["callable"] and len(msg["callable"].split()) == 48


def test_the_wire_view_holds_only_what_the_seat_sees() -> None:
    st = new_match(load_preset("classic-1deck"), 3)
    msg = act_message(1, seat_view(st, 2), 1.0)
    assert msg["view"] == seat_view(st, 2).to_json()  # what a web client gets
    assert sorted(msg["exact"]["hand"].split()) == sorted(c.text for c in st.hands[2])
    assert "seed" not in json.dumps(msg)


def _lines(*msgs: dict[str, object]) -> list[str]:
    return [json.dumps(m) for m in msgs]


def test_reference_bot_answers_hello_game_and_act() -> None:
    opts = load_preset("classic-1deck")
    st = new_match(opts, 3)
    seat = st.to_act if st.to_act is not None else 0
    out = io.StringIO()
    run_bot(
        "random",
        _lines(
            {"type": "hello", "protocol": 1, "time_limit": 1.0},
            game_message(opts, seat, 9, {}),
            act_message(1, seat_view(st, seat), 1.0),
            {"type": "teleport"},
            {"type": "quit"},
            {"type": "hello"},  # after quit: not read
        ),
        out,
    )
    hello, ready, action, error = [json.loads(line) for line in out.getvalue().splitlines()]
    assert hello["protocol"] == 1 and hello["name"] == "random"
    assert [o["name"] for o in hello["options"]] == ["player"]
    assert ready == {"type": "ready"}
    assert action["type"] == "action" and action["id"] == 1
    assert action["action"]["type"] in ("declare", "pass")
    assert error == {"type": "error", "message": "BOT_PROTOCOL: unknown message type 'teleport'"}


def test_exec_heuristic_plays_twenty_mirrored_hands_like_the_heuristic_bot() -> None:
    opts = load_preset("classic-1deck")
    external = Settings(
        opts, (f"exec:{REFERENCE} --player heuristic", "random"), hands=20, mirror=True, seed=2
    )
    inside = Settings(opts, ("heuristic", "random"), hands=20, mirror=True, seed=2)
    a = summarise(external, run_jobs(external)).to_json()
    b = summarise(inside, run_jobs(inside)).to_json()
    assert a["hands"] == 20 and a["forfeits"] == []
    # the heuristic bot does not draw on its seed: the same decisions, the same figures
    for team in (*a["teams"], *b["teams"]):
        team.pop("bot")
    assert a["teams"] == b["teams"]


@pytest.mark.parametrize(
    ("mode", "code", "reason"),
    [
        (
            "crash",
            "BOT_CRASHED",
            "exited (status 3); its last words on stderr: boom: the bot fell over",
        ),
        ("hang", "BOT_TIMEOUT", "did not answer within 0.5 s"),
        ("garbage", "BOT_PROTOCOL", "sent a line that is not JSON"),
    ],
)
def test_a_failing_bot_forfeits_its_hand(mode: str, code: str, reason: str) -> None:
    spec = f"exec:{BAD_BOT} {mode}"
    s = Settings(load_preset("classic-1deck"), (spec, "random"), hands=2, mirror=True, bot_time=0.5)
    results = run_jobs(s)
    summary = summarise(s, results)
    assert [(f.deal, f.mirrored, f.hand, f.seat % 2, f.bot, f.code) for f in summary.forfeits] == [
        (0, False, 1, 0, spec, code),
        (0, True, 1, 1, spec, code),
    ]
    assert all(reason in f.reason and BAD_BOT in f.reason for f in summary.forfeits)
    a, b = summary.teams
    assert (a.win_rate, b.win_rate, b.level_rate) == (0.0, 1.0, 1.0)
    levels = forfeit_levels(s.options)
    assert levels == 2  # classic-1deck: a banker side climbs 2 when the collectors score 0
    assert [h.levels for r in results for h in r.hands] == [levels, levels]
    assert all(h.forfeit for r in results for h in r.hands)


def test_an_illegal_answer_forfeits_with_the_rules_code(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"exec:{BAD_BOT} illegal"
    code = main(
        [
            "simulate",
            "--players",
            f"{spec},random",
            "--hands",
            "1",
            "--preset",
            "classic-1deck",
            "--seed",
            "3",
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    forfeits = [line for line in out.splitlines() if line.startswith("forfeit:")]
    assert forfeits == [
        f"forfeit: deal 0, hand 1, seat 2 ({spec}): BOT_ILLEGAL: ILLEGAL_ACTION: "
        "now is the time to declare or pass (deal)"
    ]
    assert "1 hand(s) forfeited" in out


def test_a_forfeit_loses_the_match() -> None:
    s = Settings(load_preset("classic-1deck"), (f"exec:{BAD_BOT} crash", "random"), matches=1)
    (result,) = run_jobs(s)
    assert result.a_won_match is False
    assert isinstance(result.forfeit, Forfeit) and result.forfeit.hand == 1


def test_bot_options_are_checked_against_the_handshake(tmp_path: Path) -> None:
    ok = Settings(
        load_preset("classic-1deck"),
        (f"exec:{REFERENCE}", "random"),
        hands=1,
        bot_options=(("player", "random"),),
    )
    assert summarise(ok, run_jobs(ok)).forfeits == []
    bad = Settings(
        load_preset("classic-1deck"),
        (f"exec:{REFERENCE}", "random"),
        hands=1,
        bot_options=(("depth", "9"),),
    )
    with pytest.raises(ShengjiError) as err:
        run_jobs(bad)
    assert err.value.code == "UNKNOWN_BOT_OPTION"
    assert "its options: player" in err.value.message


def test_exec_specs_are_checked_before_anything_runs() -> None:
    assert check_command_line_spec("exec:./bot --fast") == "exec:./bot --fast"
    for spec, code in [
        ("exec:", "BAD_BOT_SPEC"),
        ("exec:'open", "BAD_BOT_SPEC"),
        ("nobody", "UNKNOWN_BOT"),
    ]:
        with pytest.raises(ShengjiError) as err:
            check_command_line_spec(spec)
        assert err.value.code == code


def test_a_program_that_cannot_start_or_speaks_another_version() -> None:
    with pytest.raises(ShengjiError) as err:
        BotProcess("/nonexistent/bot", BotLimits())
    assert err.value.code == "BOT_CRASHED"
    script = 'import sys; sys.stdin.readline(); print(\'{"type":"hello","protocol":2}\')'
    with pytest.raises(ShengjiError) as err:
        BotProcess(f"{PY} -c {shlex.quote(script)}", BotLimits(startup=10))
    assert err.value.code == "BOT_PROTOCOL"
    assert "speaks protocol 2, not 1" in err.value.message


def test_ray_backend_gives_the_results_of_worker_processes() -> None:
    ray = pytest.importorskip("ray")
    s = Settings(
        load_preset("classic-1deck"), ("heuristic", "random"), hands=6, mirror=True, seed=11
    )
    local = summarise(s, run_jobs(s)).to_json()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = summarise(s, run_jobs(s, backend="ray")).to_json()
    finally:
        ray.shutdown()
    for times in ("decision_ms", "decision_cpu_ms"):  # measured: differ between runs
        assert on_ray.pop(times).keys() == local.pop(times).keys() == {"A", "B"}
    assert on_ray == local


@pytest.mark.parametrize("mode", ["illegal", "crash"])
def test_in_a_room_the_heuristic_moves_for_a_failing_program(mode: str) -> None:
    st = new_match(load_preset("classic-1deck"), 5)
    seat = st.to_act if st.to_act is not None else 0
    bot = ExternalBot(f"{BAD_BOT} {mode}", seat, 1, BotLimits(decision=2))
    action = asyncio.run(bot.act_in_room(seat_view(st, seat), lambda a: apply(st, seat, a)))
    expected = HeuristicBot(seat, bot.seed).act(seat_view(st, seat))
    assert action == expected
    assert bot.proc is None  # stopped: the next decision starts the program again


# -- what is legal travels with each request ------------------------------------------------

WIRE_BOT = f"{PY} {shlex.quote(str(Path(__file__).parent / 'wire_bot.py'))}"


@pytest.mark.parametrize("preset", ["classic-3deck", "shuangsheng"])
def test_a_bot_that_plays_only_what_the_requests_say_never_forfeits(preset: str) -> None:
    s = Settings(load_preset(preset), (f"exec:{WIRE_BOT}", "random"), hands=12, mirror=True)
    summary = summarise(s, run_jobs(s))
    assert summary.forfeits == [] and summary.hands == 12


def test_the_act_request_lists_what_is_legal() -> None:
    from shengji.rules.follow import legal_follows
    from shengji.rules.leads import unit_leads

    opts = load_preset("shuangsheng")
    assert game_message(opts, 0, 1, {})["kitty_size"] == 8
    rng = random.Random(3)
    st = new_match(opts, 3)
    kinds = set()
    while st.phase not in ("hand_over", "match_over"):
        seat = st.to_act
        assert seat is not None
        msg = act_message(1, seat_view(st, seat), 5.0)
        if "kitty_size" in msg:
            kinds.add("bury")
            assert msg["kitty_size"] == 8
        if "leads" in msg:
            kinds.add("lead")
            assert msg["leads"] == [format_cards(u) for u in unit_leads(st.ctx, st.hand_of(seat))]
        if "follows" in msg:
            kinds.add("follow")
            assert st.lead is not None
            want = {
                tuple(sorted(c.index for c in f))
                for f in legal_follows(st.ctx, st.lead, st.hand_of(seat))
            }
            got = set()
            for fam in msg["follows"]:
                fixed, pool = parse_cards(fam["fixed"]), parse_cards(fam["pool"])
                for extra in itertools.combinations(pool, fam["free"]):
                    got.add(tuple(sorted(c.index for c in (*fixed, *extra))))
            assert got == want
        st, _ = apply(st, seat, random_action(st, seat, rng))
    assert kinds == {"bury", "lead", "follow"}


def test_a_bot_that_cannot_start_stops_the_run_at_once() -> None:
    s = Settings(load_preset("classic-1deck"), ("exec:/nonexistent/bot", "random"), hands=200)
    with pytest.raises(ShengjiError) as err:
        run_jobs(s)
    assert err.value.code == "BOT_CRASHED" and "/nonexistent/bot" in err.value.message
    run = subprocess.run(
        [
            PY,
            "-m",
            "shengji.tools.cli",
            "simulate",
            "--players",
            "exec:/nonexistent/bot,random",
            "--hands",
            "200",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "BOT_CRASHED" in run.stderr


def test_a_server_bot_that_cannot_start_stops_the_server_at_start(tmp_path: Path) -> None:
    for command, code in [
        ("/nonexistent/bot", "BOT_CRASHED"),
        # alive, but not speaking the protocol (stays up, so the answer is read, not the exit)
        (f"{PY} -c 'import time; print(1, flush=True); time.sleep(30)'", "BOT_PROTOCOL"),
    ]:
        db = f"sqlite:///{tmp_path / 'rooms.db'}"
        run = subprocess.run(
            [
                PY,
                "-m",
                "shengji.tools.cli",
                "serve",
                "--port",
                "0",
                "--db",
                db,
                "--bot",
                f"mine={command}",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and code in run.stderr, run.stderr
        assert "shengji server on" not in run.stdout
