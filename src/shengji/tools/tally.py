"""The tally of a self-play run (:mod:`shengji.tools.simulate`): each team's figures with
confidence intervals, per player and per seat, the decision times, and the summary as
text or a plot of the collectors' points."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots.stats import percentile, ratio_ci

if TYPE_CHECKING:  # the rest is imported where it is used: random players need none of it
    pass
from .simulate import Forfeit, JobResult, Settings, _fields, a_seats


@dataclass
class TeamFigures:
    """The figures of one bot's team, each with a 95% interval."""

    bot: str
    win_rate: float
    win_rate_ci: tuple[float, float]
    level_rate: float
    level_rate_ci: tuple[float, float]
    mean_points: float
    mean_points_ci: tuple[float, float]
    match_win_rate: float | None = None
    match_win_rate_ci: tuple[float, float] | None = None
    #: 找朋友: levels climbed per player and hand.
    levels_per_hand: float | None = None
    levels_per_hand_ci: tuple[float, float] | None = None


@dataclass
class Summary:
    """What a simulation measured."""

    preset: str
    players: tuple[str, str]
    mirror: bool
    hands: int
    matches: int | None
    seed: int
    decks: int = 2
    teams: list[TeamFigures] = field(default_factory=list)
    forfeits: list[Forfeit] = field(default_factory=list)
    #: Per team ("A", "B"): decision time in ms, median and 99th percentile (wall time:
    #: the one figure that differs between runs of the same seed).
    decision_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Per team: the CPU time of a decision in ms, median and 99th percentile (the bot's
    #: own: an ``exec:`` program's process where the system tells it; a team whose
    #: decisions were not measured is left out).
    decision_cpu_ms: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Per team whose bot searched (``effort``): its searched decisions, how many the
    #: wall-clock cap stopped, and the rollouts and sampled deals a decision got, p10 and
    #: p50 (:func:`shengji.bots.search.effort_figures`).
    search: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: 找朋友: the seats at the table (figures are per player); 0 for fixed partnerships.
    players_at_table: int = 0
    #: 找朋友: the hands whose banker's side ended with all its seats (the banker and a
    #: friend per call), and the hands played out (forfeits left out).
    full_sides: tuple[int, int] = (0, 0)
    #: The rule options played (:meth:`RuleOptions.to_dict`): a paired comparison needs
    #: the same ones.
    rules: dict[str, Any] = field(default_factory=dict)
    #: Per deal (both seatings when mirrored; a match with --matches): its index, bot A's
    #: levels (找朋友: A's players' levels), every level climbed, A's hands won (找朋友:
    #: A's players that went up) and the hands (player-hands): what a paired comparison of
    #: two runs on the same deals reads (:func:`paired_level_rate`).
    deals: list[dict[str, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return {
            "preset": self.preset,
            "players_at_table": self.players_at_table,
            "players": list(self.players),
            "mirror": self.mirror,
            "hands": self.hands,
            "matches": self.matches,
            "seed": self.seed,
            "decks": self.decks,
            "teams": [
                {k: (list(v) if isinstance(v, tuple) else v) for k, v in t.__dict__.items()}
                for t in self.teams
            ],
            "forfeits": [_fields(x) for x in self.forfeits],
            "decision_cpu_ms": {
                team: {"p50": p50, "p99": p99} for team, (p50, p99) in self.decision_cpu_ms.items()
            },
            "decision_ms": {
                team: {"p50": p50, "p99": p99} for team, (p50, p99) in self.decision_ms.items()
            },
            "search": self.search,
            "rules": self.rules,
            "deals": self.deals,
            **(
                {"full_sides": {"full": self.full_sides[0], "hands": self.full_sides[1]}}
                if self.players_at_table
                else {}
            ),
        }


def _units(results: Sequence[JobResult], mirror: bool) -> Iterator[list[JobResult]]:
    """Independent units: both seatings of a mirrored deal together, else one job each."""
    if not mirror:
        for r in results:
            yield [r]
        return
    by_index: dict[int, list[JobResult]] = {}
    for r in results:
        by_index.setdefault(r.job.index, []).append(r)
    yield from by_index.values()


def summarise(settings: Settings, results: Sequence[JobResult]) -> Summary:
    """Win rate, level rate and mean collectors' points per team, with intervals."""
    units = list(_units(results, settings.mirror))
    summary = Summary(
        preset=settings.options.name,
        players=settings.players,
        mirror=settings.mirror,
        hands=sum(len(r.hands) for r in results),
        matches=settings.matches,
        seed=settings.seed,
        decks=settings.options.decks,
        forfeits=[r.forfeit for r in results if r.forfeit is not None],
        players_at_table=settings.options.players if settings.options.friends else 0,
        rules=settings.options.to_dict(),
    )
    if settings.options.friends:
        _per_player(settings, units, summary)
        summary.full_sides = full_sides(results, 1 + settings.options.calls)
        return summary
    for team_is_a, bot in ((True, settings.players[0]), (False, settings.players[1])):
        wins, n_hands, lv, lv_all, pts, n_coll = [], [], [], [], [], []
        m_won, m_n = [], []
        for unit in units:
            hands = [h for r in unit for h in r.hands]
            wins.append(sum(1 for h in hands if h.a_up == team_is_a))
            n_hands.append(len(hands))
            lv.append(sum(h.levels for h in hands if h.a_up == team_is_a))
            lv_all.append(sum(h.levels for h in hands))
            collecting = [h for h in hands if h.a_banker != team_is_a and not h.forfeit]
            pts.append(sum(h.points for h in collecting))
            n_coll.append(len(collecting))
            decided = [r.a_won_match for r in unit if r.a_won_match is not None]
            m_won.append(sum(1 for w in decided if w == team_is_a))
            m_n.append(len(decided))
        w = _clip(ratio_ci(wins, n_hands))
        level = _clip(ratio_ci(lv, lv_all))
        mp = ratio_ci(pts, n_coll)
        fig = TeamFigures(
            bot, w[0], (w[1], w[2]), level[0], (level[1], level[2]), mp[0], (mp[1], mp[2])
        )
        if team_is_a:
            summary.deals = [
                {"deal": u[0].job.index, "a_levels": a, "levels": b, "a_wins": c, "hands": d}
                for u, a, b, c, d in zip(units, lv, lv_all, wins, n_hands, strict=True)
            ]
        if settings.matches is not None:
            mw = _clip(ratio_ci(m_won, m_n))
            fig.match_win_rate, fig.match_win_rate_ci = mw[0], (mw[1], mw[2])
        _decision_times(summary, results, team_is_a)
        summary.teams.append(fig)
    return summary


def _per_player(settings: Settings, units: list[list[JobResult]], summary: Summary) -> None:
    """找朋友's figures per bot, over player-hands: how often its players went up, their
    share of the levels climbed, levels per player-hand and the collectors' points when
    its players collected."""
    for team_is_a, bot in ((True, settings.players[0]), (False, settings.players[1])):
        ups: list[int] = []
        n: list[int] = []
        lv: list[int] = []
        lv_all: list[int] = []
        pts: list[int] = []
        n_coll: list[int] = []
        for unit in units:
            u = [0, 0, 0, 0, 0, 0]
            for r in unit:
                mine = [a == team_is_a for a in a_seats(settings.options, r.job)]
                for h in r.hands:
                    for s, is_mine in enumerate(mine):
                        u[3] += h.seat_levels[s] if h.seat_levels else 0
                        if not is_mine:
                            continue
                        u[0] += h.seat_up[s]
                        u[1] += 1
                        u[2] += h.seat_levels[s] if h.seat_levels else 0
                        if h.seat_collected and h.seat_collected[s] and not h.forfeit:
                            u[4] += h.points
                            u[5] += 1
            for lst, v in zip((ups, n, lv, lv_all, pts, n_coll), u, strict=True):
                lst.append(v)
        if team_is_a:
            summary.deals = [
                {"deal": u[0].job.index, "a_levels": a, "levels": b, "a_wins": c, "hands": d}
                for u, a, b, c, d in zip(units, lv, lv_all, ups, n, strict=True)
            ]
        w = _clip(ratio_ci(ups, n))
        share = _clip(ratio_ci(lv, lv_all))
        per = ratio_ci(lv, n)
        mp = ratio_ci(pts, n_coll)
        fig = TeamFigures(
            bot, w[0], (w[1], w[2]), share[0], (share[1], share[2]), mp[0], (mp[1], mp[2])
        )
        fig.levels_per_hand, fig.levels_per_hand_ci = per[0], (per[1], per[2])
        results = [r for unit in units for r in unit]
        _decision_times(summary, results, team_is_a)
        summary.teams.append(fig)


def full_sides(results: Sequence[JobResult], seats: int) -> tuple[int, int]:
    """找朋友: how many hands' banker's side ended with ``seats`` seats (the banker and a
    friend per call: no call answered by a seat already on the side, none left in the
    kitty), of the hands played out."""
    sides = [
        sum(1 for collected in h.seat_collected if not collected)
        for r in results
        for h in r.hands
        if h.seat_collected and not h.forfeit
    ]
    return sum(1 for n in sides if n == seats), len(sides)


def _decision_times(summary: Summary, results: Sequence[JobResult], team_is_a: bool) -> None:
    """The team's decision times (wall and CPU, median and 99th percentile, in ms), and
    what its searched decisions got."""
    team = 0 if team_is_a else 1
    name = "A" if team_is_a else "B"
    for attr, into in (("times", summary.decision_ms), ("cpu", summary.decision_cpu_ms)):
        values = sorted(t for r in results for t in getattr(r, attr)[team])
        if values:
            into[name] = (1e3 * percentile(values, 0.5), 1e3 * percentile(values, 0.99))
    efforts = [e for r in results for e in r.efforts[team]]
    if efforts:
        from ..bots.search import effort_figures

        summary.search[name] = effort_figures(efforts)


def _clip(est: tuple[float, float, float]) -> tuple[float, float, float]:
    """A proportion's interval clipped to [0, 1]."""
    r, lo, hi = est
    return (r, max(0.0, lo), min(1.0, hi))


def collector_points(results: Sequence[JobResult]) -> tuple[list[int], list[int]]:
    """Collectors' points when bot A's team collected, and when bot B's did."""
    a: list[int] = []
    b: list[int] = []
    for r in results:
        for h in r.hands:
            if not h.forfeit:
                (b if h.a_banker else a).append(h.points)
    return a, b


def plot_points(summary: Summary, results: Sequence[JobResult], path: str) -> None:
    """Histogram of collectors' points per team (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a, b = collector_points(results)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    top = max([*a, *b, 80]) + 10
    bins = list(range(0, top + 10, 10))
    ax.hist([a, b], bins=bins, label=[f"A: {summary.players[0]}", f"B: {summary.players[1]}"])
    ax.axvline(40 * summary.decks, color="grey", linestyle="--", linewidth=1)  # take over
    ax.set_xlabel("collectors' points when this team collects")
    ax.set_ylabel("hands")
    ax.set_title(
        f"{summary.preset}: {summary.players[0]} vs {summary.players[1]} ({summary.hands} hands)"
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def format_summary(summary: Summary) -> str:
    """A plain text table of the figures."""

    def pct(v: float, ci: tuple[float, float]) -> str:
        return f"{100 * v:5.1f}%  [{100 * ci[0]:5.1f}, {100 * ci[1]:5.1f}]"

    w = max(10, *(len(p) for p in summary.players))  # exec: specs are long
    if summary.players_at_table:
        return _format_per_player(summary, pct, w)
    lines = [
        f"{summary.preset}: {summary.players[0]} (A) vs {summary.players[1]} (B), "
        f"{summary.hands} hands{', mirrored' if summary.mirror else ''}, seed {summary.seed}",
        f"{'team':6} {'bot':{w}} {'hand win rate':26} {'level rate':26} {'mean collectors pts':24}",
    ]
    for name, t in zip("AB", summary.teams, strict=True):
        lines.append(
            f"{name:6} {t.bot:{w}} {pct(t.win_rate, t.win_rate_ci):26} "
            f"{pct(t.level_rate, t.level_rate_ci):26} "
            f"{t.mean_points:6.1f} [{t.mean_points_ci[0]:6.1f}, {t.mean_points_ci[1]:6.1f}]"
        )
        if t.match_win_rate is not None and t.match_win_rate_ci is not None:
            lines[-1] += f"  matches {pct(t.match_win_rate, t.match_win_rate_ci)}"
    lines.append("95% confidence intervals in brackets (ratio estimator over independent deals).")
    lines += _timing_lines(summary)
    lines += [f.text() for f in summary.forfeits]
    if summary.forfeits:
        lines.append(
            f"{len(summary.forfeits)} hand(s) forfeited: each counted as won by the other team "
            "by the most levels a banker side wins, left out of the mean points"
        )
    return "\n".join(lines)


def _timing_lines(summary: Summary) -> list[str]:
    """The decision times, wall and CPU, p50 / p99 per team; the rollouts and deals of
    searched decisions, p10 / p50."""
    lines = []
    for what, times in (("time", summary.decision_ms), ("CPU time", summary.decision_cpu_ms)):
        timed = [f"{team} {p50:.2f} / {p99:.2f} ms" for team, (p50, p99) in times.items()]
        if timed:
            lines.append(f"decision {what} p50 / p99: {', '.join(timed)}")
    for team, f in summary.search.items():
        r, d = f["rollouts"], f["deals"]
        lines.append(
            f"search {team} per decision p10 / p50: {r['p10']} / {r['p50']} rollouts, "
            f"{d['p10']} / {d['p50']} sampled deals; {f['capped']} of {f['decisions']} "
            "decisions stopped by the wall-clock cap"
        )
    return lines


def _format_per_player(summary: Summary, pct: Callable[..., str], w: int) -> str:
    """:func:`format_summary` for 找朋友: per player, not per team."""
    lines = [
        f"{summary.preset} ({summary.players_at_table} players, 找朋友): {summary.players[0]} "
        f"(A, even seats) vs {summary.players[1]} (B, odd seats), {summary.hands} hands"
        f"{', mirrored' if summary.mirror else ''}, seed {summary.seed}",
        f"{'bot':6} {'name':{w}} {'player went up':26} {'share of levels':26} "
        f"{'levels per player-hand':24}",
    ]
    for name, t in zip("AB", summary.teams, strict=True):
        per, ci = t.levels_per_hand or 0.0, t.levels_per_hand_ci or (0.0, 0.0)
        lines.append(
            f"{name:6} {t.bot:{w}} {pct(t.win_rate, t.win_rate_ci):26} "
            f"{pct(t.level_rate, t.level_rate_ci):26} {per:5.2f} [{ci[0]:5.2f}, {ci[1]:5.2f}]"
        )
    lines.append("95% confidence intervals in brackets (ratio estimator over independent deals).")
    full, played = summary.full_sides
    if played:
        lines.append(
            f"banker's side at full strength: {full} of {played} hands ({100 * full / played:.1f}%)"
        )
    lines += _timing_lines(summary)
    lines += [f.text() for f in summary.forfeits]
    return "\n".join(lines)
