"""What a defender's sampled kitties hold at the first lead, with and without the burial
prior (docs/bots.md, "The search bot"): trumps, points and the banker's trumps, on
average over heuristic self-play deals, beside the true ones.

    python scripts/kitty_prior.py [--preset shuangsheng] [--deals 40] [--samples 100]

Run it from the checkout with the project installed (``make .venv/.installed``).
"""

from __future__ import annotations

import argparse
import random

from shengji.bots.belief import KITTY, Belief
from shengji.bots.heuristic import HeuristicBot
from shengji.game.flow import apply, new_match
from shengji.game.views import seat_view
from shengji.rules.cards import Card, points
from shengji.rules.presets import load_preset
from shengji.rules.trump import TrumpContext


def _trumps(ctx: TrumpContext, cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(1 for c in cards if ctx.is_trump(c))


def main() -> None:
    """Print the averages, one line per way of sampling."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="shuangsheng")
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--samples", type=int, default=100, help="sampled deals per view")
    args = p.parse_args()
    opts = load_preset(args.preset)
    sums = {name: [0.0, 0.0, 0.0] for name in ("true", "plain", "burial prior")}
    for seed in range(args.deals):
        st = new_match(opts, seed)
        bots = [HeuristicBot(s, seed) for s in range(opts.players)]
        while st.phase != "play":
            seat = st.to_act
            assert seat is not None
            st, _ = apply(st, seat, bots[seat].act(seat_view(st, seat)))
        banker = st.banker
        assert banker is not None
        ctx, defender = st.ctx, (banker + 1) % opts.players
        truth = sums["true"]
        truth[0] += _trumps(ctx, st.kitty)
        truth[1] += points(st.kitty)
        truth[2] += _trumps(ctx, st.hands[banker])
        for name, prior in (("plain", False), ("burial prior", True)):
            belief = Belief(seat_view(st, defender), burial_prior=prior)
            rng = random.Random(seed)
            for _ in range(args.samples):
                deal = belief.sample(rng)
                assert deal is not None
                row = sums[name]
                row[0] += _trumps(ctx, deal[KITTY]) / args.samples
                row[1] += points(deal[KITTY]) / args.samples
                row[2] += _trumps(ctx, deal[banker]) / args.samples
    print(f"{args.preset}, {args.deals} deals, a defender's view at the first lead:")
    for name, (t, pts, banker_t) in sums.items():
        n = args.deals
        print(
            f"{name:13} kitty trumps {t / n:5.2f}, kitty points {pts / n:5.1f}, "
            f"banker's trumps {banker_t / n:5.2f}"
        )


if __name__ == "__main__":
    main()
