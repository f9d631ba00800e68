"""A self-play run as a file (``simulate --json``, one line a job) and runs compared:
``--paired-with`` checks that two runs played the same deals and pairs their results,
``compare`` words the difference of two saved runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..bots.stats import paired_ratio_diff
from .tally import Summary

if TYPE_CHECKING:  # the rest is imported where it is used: random players need none of it
    pass
from .simulate import Effort, Forfeit, HandFacts, Job, JobResult, Settings, _fields

#: What two runs must share for a paired comparison: the same deals, played the same way.
PAIRED_KEYS = ("rules", "mirror", "matches", "seed")


def read_run(path: str, flag: str = "--paired-with") -> dict[str, Any]:
    """A run's figures written by ``--json`` with its per-deal figures (the figures line
    of a run file, or a file of the figures alone as earlier versions wrote it); a
    :class:`ValueError` names ``flag`` and says what is wrong with the file."""
    import json
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8")
        lines = text.splitlines()
        run: Any = None
        if lines and lines[0].startswith("{") and f'"{RUN_FORMAT}"' in lines[0]:
            for line in reversed(lines):
                if line.startswith('{"figures"'):
                    run = json.loads(line)["figures"]
                    break
            else:
                raise ValueError("the run is not finished: the same command again finishes it")
        else:
            run = json.loads(text)
        if not isinstance(run, dict):
            raise TypeError("not a JSON object")
        missing = [k for k in (*PAIRED_KEYS, "deals", "players", "teams") if k not in run]
        if missing or not isinstance(run["deals"], list) or not run["deals"]:
            raise KeyError((missing or ["deals"])[0])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(
            f"{flag} {path}: not the figures of a simulation written by --json "
            f"with its per-deal figures ({e.__class__.__name__}: {e})"
        ) from e
    return dict(run)


def other_deals(there: dict[str, Any], here: dict[str, Any]) -> str | None:
    """Why two runs did not play the same deals under the same rules (None: they did)."""
    differ = [
        _difference(k, there[k], list(v) if isinstance(v, tuple) else v)
        for k, v in ((k, here[k]) for k in PAIRED_KEYS)
        if there[k] != (list(v) if isinstance(v, tuple) else v)
    ]
    return "; ".join(differ) or None


def read_pairing(path: str, settings: Settings) -> dict[str, Any]:
    """The figures of an earlier run (``--json``) to compare this one with deal by deal;
    a :class:`ValueError` says why they cannot be: not such a file, no per-deal figures,
    or other deals."""
    other = read_run(path)
    ours = {
        "rules": settings.options.to_dict(),
        "mirror": settings.mirror,
        "matches": settings.matches,
        "seed": settings.seed,
    }
    why = other_deals(other, ours)
    if why:
        raise ValueError(f"--paired-with {path}: other deals ({why})")
    return other


def _difference(key: str, there: Any, here: Any) -> str:
    """What differs between two runs, in words (the rules: the options that differ)."""
    if key == "rules" and isinstance(there, dict) and isinstance(here, dict):
        names = sorted(k for k in here if there.get(k) != here[k])
        return "rules " + ", ".join(f"{k} {there.get(k)!r} there, {here[k]!r} here" for k in names)
    return f"{key} {there!r} there, {here!r} here"


def paired_deals(
    here: Sequence[dict[str, int]], there: Sequence[dict[str, int]]
) -> tuple[float, float, float, int]:
    """Bot A's level rate over ``here``'s deals minus over ``there``'s, on the deals both
    played, with its 95% interval from the per-deal differences, and how many deals; a
    :class:`ValueError` when they share fewer than two deals."""
    theirs = {d["deal"]: d for d in there}
    both = [d for d in here if d["deal"] in theirs]
    if len(both) < 2:
        raise ValueError(f"{len(both)} deal(s) in common: a paired comparison needs two")
    est, lo, hi = paired_ratio_diff(
        [d["a_levels"] for d in both],
        [d["levels"] for d in both],
        [theirs[d["deal"]]["a_levels"] for d in both],
        [theirs[d["deal"]]["levels"] for d in both],
    )
    return est, lo, hi, len(both)


def paired_level_rate(summary: Summary, other: dict[str, Any]) -> tuple[float, float, float, int]:
    """Bot A's level rate here minus in ``other`` (a run's JSON on the same deals), with
    its 95% interval from the per-deal differences, and how many deals both played."""
    return paired_deals(summary.deals, other["deals"])


def compare_runs(path: str, base: str) -> str:
    """``shengji compare RUN.json BASE.json``: bot A's level rate in each of two runs on
    the same deals (side by side, say: one a core) and the paired difference, in one line;
    a :class:`ValueError` says why they cannot be compared."""
    run, other = read_run(path, "compare"), read_run(base, "compare")
    why = other_deals(other, run)
    if why:
        raise ValueError(f"compare {path} {base}: other deals ({why})")
    est, lo, hi, n = paired_deals(run["deals"], other["deals"])

    def said(r: dict[str, Any], p: str) -> str:
        a, b = r["players"]
        return f"{100 * r['teams'][0]['level_rate']:.1f}% in {p} ({a} vs {b})"

    return (
        f"A's level rate {said(run, path)}, {said(other, base)}; on the same {n} deals: "
        f"{100 * est:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    )


#: The ``format`` of a run's ``--json`` file (:class:`RunFile`).
RUN_FORMAT = "shengji-simulate"


class RunFile:
    """A run's ``--json`` file, written as the run goes: JSON Lines, the run's settings
    first, then one line per deal (or match) as soon as it is played (``job``), and when
    the run is done its figures (``figures``: :meth:`Summary.to_json`). A run stopped
    before its end (killed, a machine gone) is continued by the same command: the deals
    in the file are kept and the others played (the results are those of a run that was
    never stopped: every deal is played from its own seed)."""

    def __init__(self, path: str, settings: Settings) -> None:
        self.path = path
        self.settings = settings
        self.header: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": 1,
            "settings": run_settings(settings),
        }
        self._out: Any = None

    def resume(self) -> list[JobResult]:
        """The results already in the file (none when there is no file), after checking
        that it is a run of these settings (``ValueError`` saying why not); the file is
        left with its settings and those results, to be added to."""
        import json
        from pathlib import Path

        p = Path(self.path)
        done: list[JobResult] = []
        if p.exists() and p.stat().st_size:
            lines = p.read_text(encoding="utf-8").splitlines()
            try:
                header = json.loads(lines[0])
            except ValueError:
                header = None
            if not isinstance(header, dict) or header.get("format") != RUN_FORMAT:
                raise ValueError(f"--json {self.path}: not a run file of shengji simulate")
            if header != json.loads(json.dumps(self.header)):
                raise ValueError(
                    f"--json {self.path} holds a run of other settings "
                    f"({_settings_difference(header.get('settings'), self.header['settings'])}): "
                    "give another file, or the same arguments to continue that run"
                )
            for line in lines[1:]:
                try:
                    item = json.loads(line)
                except ValueError:  # the line being written when the run was stopped
                    break
                if isinstance(item, dict) and "job" in item:
                    done.append(job_from_json(item["job"]))
        with p.open("w", encoding="utf-8") as f:
            f.write(_line(self.header))
            for res in done:
                f.write(_line({"job": job_to_json(res)}))
        self._out = p.open("a", encoding="utf-8")
        return done

    def add(self, res: JobResult) -> None:
        """Write the result of one job (at once: a run stopped after it keeps it)."""
        self._out.write(_line({"job": job_to_json(res)}))
        self._out.flush()

    def finish(self, summary: Summary) -> None:
        """Write the run's figures; the file is complete."""
        self._out.write(_line({"figures": summary.to_json()}))
        self.close()

    def close(self) -> None:
        """Close the file (what is in it stays)."""
        if self._out is not None:
            self._out.close()
            self._out = None


def run_settings(settings: Settings) -> dict[str, Any]:
    """What decides a run's results (a continued run must have the same)."""
    return {
        "rules": settings.options.to_dict(),
        "players": list(settings.players),
        "hands": settings.hands,
        "matches": settings.matches,
        "seed": settings.seed,
        "mirror": settings.mirror,
        "max_hands_per_match": settings.max_hands_per_match,
        "bot_time": settings.bot_time,
        "bot_options": [list(o) for o in settings.bot_options],
    }


def _settings_difference(there: Any, here: dict[str, Any]) -> str:
    if not isinstance(there, dict):
        return "no settings there"
    return "; ".join(_difference(k, there.get(k), v) for k, v in here.items() if there.get(k) != v)


def _line(item: dict[str, Any]) -> str:
    import json

    return json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n"


def job_to_json(res: JobResult) -> dict[str, Any]:
    """One job's result as JSON-ready data (:func:`job_from_json` reads it back)."""
    return {
        "deal": res.job.index,
        "mirrored": res.job.mirrored,
        "hands": [
            {k: (list(v) if isinstance(v, tuple) else v) for k, v in _fields(h).items()}
            for h in res.hands
        ],
        "a_won_match": res.a_won_match,
        "decisions": res.decisions,
        "forfeit": None if res.forfeit is None else _fields(res.forfeit),
        "times": [list(res.times[0]), list(res.times[1])],
        "cpu": [list(res.cpu[0]), list(res.cpu[1])],
        "efforts": [[list(e) for e in res.efforts[0]], [list(e) for e in res.efforts[1]]],
    }


def job_from_json(data: dict[str, Any]) -> JobResult:
    """A job's result from :func:`job_to_json`'s data."""
    job = Job(int(data["deal"]), bool(data["mirrored"]))
    hands = tuple(HandFacts(**_tuples(h)) for h in data["hands"])
    forfeit = None if data["forfeit"] is None else Forfeit(**data["forfeit"])
    times, cpu = data["times"], data["cpu"]
    efforts = data.get("efforts", [[], []])  # runs written before efforts were kept
    return JobResult(
        job,
        hands,
        data["a_won_match"],
        int(data["decisions"]),
        forfeit,
        (tuple(times[0]), tuple(times[1])),
        (tuple(cpu[0]), tuple(cpu[1])),
        (_efforts(efforts[0]), _efforts(efforts[1])),
    )


def _efforts(data: list[list[Any]]) -> tuple[Effort, ...]:
    return tuple((int(r), int(d), bool(c)) for r, d, c in data)


def _tuples(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()}
