"""shengji simulate: mirroring, worker independence and the figures it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shengji.errors import ShengjiError
from shengji.game.record import load_record, replay
from shengji.rules.presets import load_preset
from shengji.tools.cli import main
from shengji.tools.runfiles import job_from_json, job_to_json, read_run
from shengji.tools.simulate import Job, Settings, check_ray_address, run_jobs, seat_bots
from shengji.tools.tally import format_summary, summarise


def test_mirror_plays_every_deal_twice_with_seats_swapped(tmp_path: Path) -> None:
    s = Settings(
        load_preset("tuolaji"), ("heuristic", "random"), hands=6, mirror=True, records=str(tmp_path)
    )
    jobs = s.jobs()
    assert [(j.index, j.mirrored) for j in jobs] == [
        (i, m) for i in range(3) for m in (False, True)
    ]
    assert seat_bots(s, Job(0, False)) == ["heuristic", "random", "heuristic", "random"]
    assert seat_bots(s, Job(0, True)) == ["random", "heuristic", "random", "heuristic"]
    results = run_jobs(s)
    assert [(r.job.index, r.job.mirrored) for r in results] == [(j.index, j.mirrored) for j in jobs]
    for i in range(3):
        a = load_record(tmp_path / f"deal{i:06d}.json")
        b = load_record(tmp_path / f"deal{i:06d}-mirror.json")
        assert a["seed"] == b["seed"]
        first_a = replay({**a, "actions": a["actions"][:1]}).deck_order
        first_b = replay({**b, "actions": b["actions"][:1]}).deck_order
        assert first_a == first_b  # the same cards in both seatings
    summary = summarise(s, results)
    assert summary.hands == 6
    team_a, team_b = summary.teams
    assert team_a.win_rate + team_b.win_rate == pytest.approx(1.0)


def test_workers_do_not_change_results() -> None:
    s = Settings(
        load_preset("classic-1deck"), ("heuristic", "random"), hands=8, mirror=True, seed=5
    )
    one = summarise(s, run_jobs(s, workers=1)).to_json()
    two = summarise(s, run_jobs(s, workers=2)).to_json()
    for figures in (one, two):  # the times (wall and CPU) are the one thing that differs
        for key in ("decision_ms", "decision_cpu_ms"):
            for team in figures.pop(key).values():
                assert 0 <= team["p50"] <= team["p99"]
    assert one == two


def test_every_decision_is_timed_for_its_team() -> None:
    s = Settings(load_preset("classic-1deck"), ("heuristic", "random"), hands=2, mirror=True)
    results = run_jobs(s)
    for r in results:
        a, b = r.times
        assert len(a) + len(b) == r.decisions and a and b
    text = format_summary(summarise(s, results))
    assert "decision time p50 / p99: A " in text and " ms, B " in text


def test_cli_writes_json_plot_and_records(tmp_path: Path, capsys) -> None:
    out, png, recs = tmp_path / "f.json", tmp_path / "p.png", tmp_path / "recs"
    code = main(
        [
            "simulate",
            "--preset",
            "classic-1deck",
            "--hands",
            "6",
            "--mirror",
            "--players",
            "heuristic,random",
            "--json",
            str(out),
            "--plot",
            str(png),
            "--records",
            str(recs),
            "--quiet",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "level rate" in text and "heuristic" in text
    data = read_run(str(out))
    assert data["players"] == ["heuristic", "random"]
    for team in data["teams"]:
        for key in ("win_rate", "level_rate", "mean_points"):
            assert isinstance(team[key], float)
            lo, hi = team[f"{key}_ci"]
            assert lo <= team[key] <= hi or key == "mean_points"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list(recs.glob("*.json"))) == 6
    assert main(["verify", str(next(recs.glob("*.json")))]) == 0


def test_searched_decisions_report_their_rollouts_and_deals(tmp_path: Path, capsys) -> None:
    """The rollouts and sampled deals each searched decision got, p10 / p50 per team,
    with the decisions the wall-clock cap stopped: printed, in ``--json``, and kept per
    deal so that a stopped run continues with them."""
    out = tmp_path / "s.json"
    args = ["simulate", "--preset", "classic-1deck", "--hands", "2", "--quiet"]
    assert main([*args, "--players", "search:40it/60s,heuristic", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("search A per decision"))
    assert line.endswith("decisions stopped by the wall-clock cap") and "search B" not in text
    figures = read_run(str(out))["search"]
    a = figures["A"]
    assert list(figures) == ["A"] and a["decisions"] > 0 and a["capped"] == 0
    assert 0 < a["rollouts"]["p10"] <= a["rollouts"]["p50"] <= 40
    assert 0 < a["deals"]["p10"] <= a["deals"]["p50"] <= a["rollouts"]["p50"]
    assert f"{a['rollouts']['p10']} / {a['rollouts']['p50']} rollouts" in line
    jobs = [json.loads(x)["job"] for x in out.read_text().splitlines() if x.startswith('{"job"')]
    efforts = [e for j in jobs for e in j["efforts"][0]]
    assert len(efforts) == a["decisions"] and not any(j["efforts"][1] for j in jobs)
    for j in jobs:
        assert job_to_json(job_from_json(j)) == j


def test_cli_rejects_bad_arguments(capsys) -> None:
    assert main(["simulate", "--hands", "2", "--players", "heuristic,nobody", "--quiet"]) == 2
    assert "UNKNOWN_BOT: no bot called 'nobody'" in capsys.readouterr().err
    assert main(["simulate", "--quiet"]) == 2
    assert main(["simulate", "--hands", "2", "--players", "random", "--quiet"]) == 2


def test_matches_mode_reports_match_wins() -> None:
    s = Settings(load_preset("classic-1deck"), ("heuristic", "random"), matches=2, mirror=True)
    summary = summarise(s, run_jobs(s))
    assert summary.teams[0].match_win_rate is not None
    assert summary.hands >= 4


def test_a_ray_address_with_nothing_behind_it_fails_at_once() -> None:
    """Ray retries an unreachable cluster for minutes; simulate says so in one line."""
    for quiet in (None, "auto", "local"):
        check_ray_address(quiet)  # left to Ray
    with pytest.raises(ShengjiError) as bad:
        check_ray_address("nonsense")
    assert bad.value.code == "BAD_URL"
    with pytest.raises(ShengjiError) as away:
        check_ray_address("ray://127.0.0.1:1", timeout=2)
    assert away.value.code == "UNREACHABLE" and "127.0.0.1:1" in away.value.message


# -- a worker process that dies -------------------------------------------------------------

KILLER = Path(__file__).parent / "killer_bot.py"


def _simulate(bot: str, hands: int = 8) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "shengji.tools.cli", "simulate", "--preset", "classic-1deck"]
    cmd += ["--players", f"exec:{sys.executable} {KILLER} {bot},random", "--hands", str(hands)]
    cmd += ["--workers", "2", "--quiet"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def test_a_killed_worker_s_hands_are_played_again(tmp_path: Path) -> None:
    run = _simulate(str(tmp_path / "killed"))
    assert run.returncode == 0, run.stderr
    assert "simulate: worker process " in run.stderr and "played again" in run.stderr
    assert "8 hands in " in run.stdout


def test_a_worker_that_dies_again_stops_the_run_with_a_clear_error() -> None:
    run = _simulate("always")
    assert run.returncode != 0
    assert "WORKER_LOST" in run.stderr and "stopped, again: " in run.stderr
    assert "worker process " in run.stderr


def test_simulate_needs_no_extra_and_plot_names_its_own() -> None:
    code = (
        "import sys\n"
        "sys.modules['rich'] = None; sys.modules['matplotlib'] = None  # neither installed\n"
        "import importlib.util as u\n"
        "real = u.find_spec\n"
        "u.find_spec = lambda n, *a: None if n.split('.')[0] in ('rich', 'matplotlib') "
        "else real(n, *a)\n"
        "from shengji.tools.cli import main\n"
        "args = ['simulate', '--players', 'random,random', '--hands', '4', '--workers', '1']\n"
        "assert main(args) == 0\n"
        "assert main([*args, '--plot', 'x.png']) != 0\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "4 hands in " in run.stdout and "plot" in run.stderr


def test_per_deal_figures_sum_to_the_totals_and_pair_two_runs(tmp_path: Path, capsys) -> None:
    """The JSON keeps each deal's levels (what a paired comparison reads); a run on the
    same deals compares with it deal by deal, and a run on other deals is refused before
    it plays."""
    s = Settings(load_preset("classic-1deck"), ("heuristic", "random"), hands=8, mirror=True)
    summary = summarise(s, run_jobs(s))
    deals = summary.deals
    assert [d["deal"] for d in deals] == [0, 1, 2, 3]
    assert sum(d["hands"] for d in deals) == 8
    a_levels = sum(d["a_levels"] for d in deals)
    assert a_levels / sum(d["levels"] for d in deals) == pytest.approx(summary.teams[0].level_rate)
    first = tmp_path / "first.json"
    base = ["simulate", "--preset", "classic-1deck", "--hands", "8", "--mirror", "--quiet"]
    assert main([*base, "--players", "heuristic,random", "--json", str(first)]) == 0
    assert read_run(str(first))["deals"] == deals
    capsys.readouterr()
    assert main([*base, "--players", "heuristic,random", "--paired-with", str(first)]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    # the same bots on the same deals: the same play, no difference at all
    assert line == (
        f"paired with {first} (heuristic vs random) on the same 4 deals: "
        "A's level rate +0.0 points [+0.0, +0.0] here"
    )
    other = [*base, "--seed", "1", "--players", "random,random", "--paired-with", str(first)]
    assert main(other) == 2
    assert "other deals (seed 0 there, 1 here)" in capsys.readouterr().err
    other = [*base, "--set", "decks=3", "--players", "random,random", "--paired-with", str(first)]
    assert main(other) == 2  # the same preset's name, other rules
    assert "other deals (rules decks 1 there, 3 here)" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{}")
    assert (
        main([*base, "--players", "random,random", "--paired-with", str(tmp_path / "bad.json")])
        == 2
    )
    assert "not the figures of a simulation" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_stop_when_the_run_is_killed() -> None:
    """Killing the run (not its process group) leaves no worker playing its task out for
    nobody: each stops before its next hand."""
    import os
    import signal
    import time

    cmd = [sys.executable, "-m", "shengji.tools.cli", "simulate", "--preset", "classic-1deck"]
    cmd += ["--players", "search:20it,random", "--hands", "400", "--workers", "2", "--quiet"]
    run = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            workers = [p for p in _children(run.pid) if "spawn_main" in _cmdline(p)]
            if len(workers) == 2:
                break
            time.sleep(0.1)
        assert len(workers) == 2
        time.sleep(3)  # both are playing their first task
        os.kill(run.pid, signal.SIGKILL)
        run.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in workers):
            time.sleep(0.1)
        left = [p for p in workers if Path(f"/proc/{p}").exists() and _state(p) != "Z"]
        assert not left, "workers still running after their run was killed"
    finally:
        run.kill()
        for p in workers:
            if _state(p) not in ("gone", "Z"):
                os.kill(p, signal.SIGKILL)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_compare_pairs_two_runs_made_side_by_side(tmp_path: Path, capsys) -> None:
    """``shengji compare`` reads two runs' JSON: the same deals give both level rates and
    the paired difference; other deals, or a file that is not a run, are refused."""
    base = ["simulate", "--preset", "classic-1deck", "--hands", "8", "--mirror", "--quiet"]
    one, two, other = tmp_path / "one.json", tmp_path / "two.json", tmp_path / "other.json"
    assert main([*base, "--players", "heuristic,random", "--json", str(one)]) == 0
    assert main([*base, "--players", "random,heuristic", "--json", str(two)]) == 0
    assert main([*base, "--seed", "4", "--players", "random,random", "--json", str(other)]) == 0
    capsys.readouterr()
    assert main(["compare", str(one), str(two)]) == 0
    line = capsys.readouterr().out.strip()
    a, b = (read_run(str(p))["teams"][0]["level_rate"] for p in (one, two))
    assert line.startswith(
        f"A's level rate {100 * a:.1f}% in {one} (heuristic vs random), "
        f"{100 * b:.1f}% in {two} (random vs heuristic); on the same 4 deals: "
    )
    assert f"{100 * (a - b):+.1f} points [" in line
    assert main(["compare", str(one), str(other)]) == 2
    assert "other deals (seed 4 there, 0 here)" in capsys.readouterr().err
    small = tmp_path / "small.json"
    assert main([*base[:4], "2", "--mirror", "--quiet", "--json", str(small)]) == 0
    capsys.readouterr()
    assert main(["compare", str(one), str(small)]) == 2  # one deal in common
    assert "1 deal(s) in common: a paired comparison needs two" in capsys.readouterr().err
    (tmp_path / "list.json").write_text("[]")
    assert main(["compare", str(one), str(tmp_path / "list.json")]) == 2
    assert "not the figures of a simulation" in capsys.readouterr().err


# -- the run file: a deal at a time, continued after a stop ---------------------------------

BUSY = Path(__file__).parent / "busy_bot.py"


def _figures(path: Path) -> dict[str, Any]:
    """A run's figures less its times (the one thing that differs between runs)."""
    figures = read_run(str(path))
    return {k: v for k, v in figures.items() if k not in ("decision_ms", "decision_cpu_ms")}


def test_the_json_file_grows_a_deal_at_a_time_and_a_stopped_run_continues(
    tmp_path: Path, capsys: Any
) -> None:
    """``--json`` writes the run's settings, then each deal as soon as it is played, then
    the figures; a run stopped part way (here in the middle of a line) is continued by
    the same command, and ends with the figures of a run never stopped; a file of other
    arguments, or not a run's, is refused."""
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    args = ["simulate", "--preset", "classic-1deck", "--players", "heuristic,random"]
    args += ["--hands", "12", "--mirror", "--quiet"]
    assert main([*args, "--json", str(whole)]) == 0
    lines = whole.read_text().splitlines()
    header, *jobs, last = (json.loads(line) for line in lines)
    assert header["format"] == "shengji-simulate" and header["settings"]["hands"] == 12
    assert len(jobs) == 12 and all(len(j["job"]["hands"]) == 1 for j in jobs)
    assert set(last) == {"figures"} and last["figures"]["hands"] == 12
    cut.write_text("\n".join(lines[:6]) + "\n" + lines[6][:40])  # stopped writing the 6th
    capsys.readouterr()
    assert main([*args, "--json", str(cut)]) == 0
    out = capsys.readouterr().out
    assert "7 hands in " in out and f"; 5 hand(s) were already in {cut}" in out
    assert _figures(cut) == _figures(whole)
    assert main([*args, "--json", str(cut)]) == 0  # a finished run: nothing more to play
    assert "0 hands in " in capsys.readouterr().out and _figures(cut) == _figures(whole)
    assert len(cut.read_text().splitlines()) == 14
    assert main([*args, "--seed", "1", "--json", str(cut)]) == 2
    assert "holds a run of other settings (seed 0 there, 1 here)" in capsys.readouterr().err
    (tmp_path / "notes.json").write_text("my notes\n")
    assert main([*args, "--json", str(tmp_path / "notes.json")]) == 2
    assert "not a run file of shengji simulate" in capsys.readouterr().err
    assert (tmp_path / "notes.json").read_text() == "my notes\n"  # left as it was


@pytest.mark.skipif(not Path("/proc/self/schedstat").exists(), reason="reads /proc")
def test_a_killed_run_against_a_slow_program_keeps_its_deals(tmp_path: Path) -> None:
    """Killed while it plays against an ``exec:`` bot, a run leaves the deals it played in
    its file; the same command plays the others."""
    import signal
    import time

    out = tmp_path / "run.json"
    cmd = [sys.executable, "-m", "shengji.tools.cli", "simulate", "--preset", "classic-1deck"]
    cmd += ["--players", f"exec:{sys.executable} {BUSY} 15,random", "--hands", "8", "--quiet"]
    cmd += ["--json", str(out)]
    run = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and run.poll() is None:
            if out.exists() and len(out.read_text().splitlines()) >= 3:  # settings, 2 deals
                break
            time.sleep(0.05)
        run.send_signal(signal.SIGKILL)
        run.wait(10)
    finally:
        run.kill()
    kept = [json.loads(line) for line in out.read_text().split("\n")[1:-1]]  # whole lines
    assert 2 <= len(kept) < 8 and all("job" in k for k in kept)
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"{8 - len(kept)} hands in " in again.stdout
    assert read_run(str(out))["hands"] == 8


@pytest.mark.skipif(not Path("/proc/self/schedstat").exists(), reason="reads /proc")
def test_decisions_are_timed_in_cpu_time_too_for_an_external_program() -> None:
    """An ``exec:`` program that spends 10 ms of CPU on each decision: its decisions are
    reported at about 10 ms of CPU (its own process's time), an in-process bot's at its
    own thread's time."""
    s = Settings(
        load_preset("classic-1deck"), (f"exec:{sys.executable} {BUSY} 10", "random"), hands=2
    )
    summary = summarise(s, run_jobs(s))
    a, b = summary.decision_cpu_ms["A"], summary.decision_cpu_ms["B"]
    assert 9 <= a[0] <= a[1] < 200
    assert b[0] < 2
    wall = summary.decision_ms["A"]
    assert wall[0] >= a[0] * 0.9
    assert "decision CPU time p50 / p99: A " in format_summary(summary)


def test_random_players_under_quiet_import_no_bar_no_asyncio_no_external_bots() -> None:
    """``simulate --players random,random --quiet`` plays on the kernel alone: rich (the
    progress bar), asyncio, the external-bot machinery, the game engine and the
    multiprocessing pool are not imported (its start-up is a figure of ``shengji bench``)."""
    code = (
        "import sys\n"
        "from shengji.tools.cli import main\n"
        "args = ['simulate', '--players', 'random,random', '--hands', '3', '--quiet']\n"
        "assert main(args) == 0\n"
        "heavy = ('rich', 'asyncio', 'shengji.bots.external', 'shengji.game', "
        "'concurrent.futures', 'multiprocessing', 'shengji.game.players')\n"
        "print('imported:', sorted(m for m in heavy if m in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "imported: []" in run.stdout


@pytest.mark.parametrize(
    ("preset", "overrides", "hands", "matches"),
    [
        ("shuangsheng", None, 12, None),
        ("tuolaji", None, None, 2),
        ("zhaopengyou", {"players": 6}, 8, None),
    ],
)
def test_random_players_on_the_kernel_are_the_game_engine_s_games(
    tmp_path: Path, preset: str, overrides: Any, hands: int | None, matches: int | None
) -> None:
    """Random players play on the kernel alone and are scored there; with ``--records``
    they play through the game engine: the same games, the same figures."""
    opts = load_preset(preset, overrides)
    size: dict[str, Any] = {"hands": hands, "matches": matches, "mirror": True}
    fast = Settings(opts, ("random", "random"), **size)
    engine = Settings(opts, ("random", "random"), records=str(tmp_path), **size)
    one, two = (summarise(s, run_jobs(s)).to_json() for s in (fast, engine))
    for figures in (one, two):
        del figures["decision_ms"], figures["decision_cpu_ms"]
    assert one == two
