"""Plot the learning curve of ``examples/train_dmc.py`` from its log (matplotlib: the
``plot`` extra)::

    python examples/plot_dmc.py var/dmc/model.log.jsonl docs/img/dmc-curve.png \\
        --final 0.80,0.76,0.84 --label "simulate, 1000 mirrored hands"

Each point is the greedy agent's level rate against random over the log's evaluation
hands (mirrored deals) after that many minutes of training; ``--final`` adds the level
rate measured afterwards by ``shengji simulate`` (rate, low, high of its 95% interval) and
``--measured`` the same for models kept along the way (``train_dmc.py --keep``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log", type=Path)
    ap.add_argument("png", type=Path)
    ap.add_argument("--final", help="RATE,LOW,HIGH of the measured level rate")
    ap.add_argument(
        "--measured",
        action="append",
        default=[],
        help="MINUTES,RATE,LOW,HIGH: a kept model measured by simulate (repeatable)",
    )
    ap.add_argument("--label", default="shengji simulate")
    ap.add_argument("--title", default="DMC agent vs random (shuangsheng)")
    ap.add_argument("--other", type=Path, help="another run's log, drawn for comparison")
    ap.add_argument("--other-label", default="another run")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.log.read_text().splitlines() if line.strip()]
    minutes = [r["seconds"] / 60 for r in rows]
    rates = [100 * r["eval_level_rate"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    n = rows[-1]["eval_hands"]
    ax.plot(minutes, rates, marker="o", label=f"greedy agent, {n} mirrored hands per point")
    if args.other:
        other = [json.loads(x) for x in args.other.read_text().splitlines() if x.strip()]
        ax.plot(
            [r["seconds"] / 60 for r in other],
            [100 * r["eval_level_rate"] for r in other],
            marker=".",
            ls="--",
            color="tab:grey",
            label=args.other_label,
        )
    ax.axhline(50, color="grey", lw=0.8, ls=":", label="random vs random")
    ax.axhline(75, color="tab:red", lw=0.8, ls="--", label="target 75%")
    points = [m.split(",") for m in args.measured]
    if args.final:
        points.append([str(minutes[-1]), *args.final.split(",")])
    if points:
        xs = [float(p[0]) for p in points]
        rate, low, high = ([100 * float(p[i]) for p in points] for i in (1, 2, 3))
        ax.errorbar(
            xs,
            rate,
            yerr=[
                [r - lo for r, lo in zip(rate, low, strict=True)],
                [h - r for r, h in zip(rate, high, strict=True)],
            ],
            fmt="s",
            color="black",
            capsize=4,
            label=args.label,
        )
    ax.set_xlabel("training time (CPU minutes, one core)")
    ax.set_ylabel("level rate against random (%)")
    ax.set_ylim(30, 100)
    ax.set_title(args.title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    args.png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
